public enum CommandLineTool {}

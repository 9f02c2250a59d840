print("generator")

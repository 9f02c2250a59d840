import Import
import JSON
import XCTest

@testable import Habits

/// The import validates each task on the reader's tape (`JSONTape`, issue 13); tests and callers
/// with a record in memory validate a tree. Both must say the same.
final class TaskTapeValidationTests: XCTestCase {
    /// A task validated on the reader's tape, as the import validates it, gives what the same record
    /// built in memory gives: the same fields, the same JSON text of `contexte`, or the same error.
    func testTasksValidateAlikeOnTheTapeAndFromATree() throws {
        let text = """
            [{"id":"t1","userId":"u1","date":"2026-11-28","libelle":"Caf\\u00e9 \\"noir\\"","state":"terminee",
              "contexte":["Maison","Trajet"],"createdAt":"2026-11-28T08:00:00+01:00","completedAt":null},
             {"id":17,"userId":"u1","date":"2026-11-28","libelle":"x","state":"a_faire","contexte":[]},
             {"id":"t3","userId":"u1","date":"2026-02-30","libelle":"x","state":"a_faire"},
             {"id":"t4","userId":"u1","date":"2026-11-28","libelle":"x","state":"fini"},
             {"id":"t5","userId":"u1","date":"2026-11-28","libelle":"x","state":"a_faire","contexte":["a",2]},
             {"id":"","userId":"u1"}, [1,2], {"id":"t7","id":"t8"}]
            """
        var outcomes: [String] = []
        let reader = JSONRecordReader(source: MemoryByteSource(Array(text.utf8)), jsonLines: false, bufferSize: 5)
        while let record = try reader.nextOnTape() {
            let tape = try record.tape.get()
            let fromTape = Result { () throws(FieldError) in try TasksImporter.validate(RecordReader(record: tape)) }
            let fromTree = Result { () throws(FieldError) in try TasksImporter.validate(tape.value(at: 0)) }
            switch (fromTape, fromTree) {
            case (.success(let oneRow), .success(let twoRow)):
                XCTAssertEqual(oneRow, twoRow, "the rows made for the store too")
                let one = oneRow.task, two = twoRow.task
                outcomes.append("\(one.id) \(one.contexteJSON ?? "no contexte")")
                XCTAssertEqual(one.id, two.id)
                XCTAssertEqual(one.libelle, two.libelle)
                XCTAssertEqual(one.state, two.state)
                XCTAssertEqual(one.contexteJSON, two.contexteJSON)
                XCTAssertEqual(one.createdAt, two.createdAt)
                XCTAssertEqual(one.completedAt, two.completedAt)
            case (.failure(let one), .failure(let two)):
                XCTAssertEqual(one.description, two.description)
                outcomes.append(one.description)
            default:
                XCTFail("tape \(fromTape) but tree \(fromTree)")
            }
            XCTAssertEqual(RecordReader.looseId(tape), RecordReader.looseId(tape.value(at: 0)))
        }
        XCTAssertEqual(
            outcomes,
            [
                #"t1 ["Maison","Trajet"]"#, "17 no contexte", #"field date: invalid date (YYYY-MM-DD) "2026-02-30""#,
                #"field state: must be one of a_faire, en_cours, terminee "fini""#,
                #"field contexte[1]: must be a string 2"#,
                #"field id: invalid id (a non-empty string or an integer) """#,
                #"field (record): not an object [1,2]"#, "field id: repeated field",
            ])
    }
}

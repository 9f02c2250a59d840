import CLibPQ

/// Something whose result is still on the wire, to be read before the connection can send anything
/// else (`PostgresConnection.finishStream`): a query in single-row mode, or a cursor's next chunk.
protocol PostgresStream: AnyObject {
    /// Reads what is on the wire into memory, so that another command can be sent.
    func drain()
}

/// How many rows a cursor asks for at a time (`FETCH FORWARD n`): at most `rows`, and fewer when
/// rows are wide, so that a chunk's result takes about `bytes` of memory at most.
struct PostgresReadChunk: Sendable {
    /// Enough for a FETCH's round trip to vanish beside the work on its rows (10,000 habits rows:
    /// about 1 MB of result).
    var rows = 10_000
    /// A wide row (a flow with long contexts, a long text) makes a chunk fewer rows.
    var bytes = 8 << 20
    /// The first chunk, asked before a row's size is known: a small result comes whole in it.
    var firstRows = 2_000

    /// The rows to ask for after a chunk of `count` rows took `size` bytes.
    func nextRows(after count: Int, size: Int) -> Int {
        guard count > 0 else { return max(1, min(rows, firstRows)) }
        let perRow = max(1, size / count)
        return max(1, min(rows, bytes / perRow))
    }
}

/// A query's rows read through a server-side cursor, a chunk at a time: `DECLARE name NO SCROLL
/// CURSOR FOR <query>` (declared by the statement, with its parameters), then `FETCH FORWARD n`
/// until a chunk comes back short, then `CLOSE`. Owns libpq results: not Sendable.
///
/// Why: in single-row mode libpq makes (and the caller frees) one result object per row, with a
/// copy of the row's column descriptions; a chunk is one result object whose rows are read by
/// index. Memory stays flat: the statement holds the chunk it hands rows out of, and this cursor
/// at most one more, the next, which is asked for as soon as the one before arrives (so that the
/// server reads on while the client works, as in single-row mode) and read off the wire early only
/// when another command needs the connection.
///
/// A cursor lives in its transaction (`PostgresConnection.readsThroughCursors`: a reading one).
/// When the transaction commits with rows left, they are read first (`FETCH ALL`), so the
/// statement still hands them out, as it did when a stream was read ahead; when it rolls back, the
/// statement's next step past the rows it holds throws. An error of the query (a division by zero
/// at row 15,000) ends the rows: the chunks before it are handed out, then it is thrown, once.
final class PostgresCursor: PostgresStream {
    let connection: PostgresConnection
    let name: String
    /// The statement's SQL, as its errors name it.
    let sql: String
    /// Whether every FETCH asks for the binary format (`PostgresType.canReadBinary`).
    let binary: Bool
    /// Chunks read off the wire and not handed out yet, oldest first.
    private var received: [OpaquePointer] = []
    /// A FETCH was sent and its result is not read yet.
    private var inFlight = false
    /// The rows the last FETCH asked for.
    private var asked = 0
    /// The rows the next FETCH asks for.
    private var nextCount: Int
    /// The server has no more rows to give (a chunk came back short, the query failed, or the
    /// transaction ended).
    private var atEnd = false
    /// The error that ends the rows, thrown after the chunks before it.
    private var failure: PostgresError?

    /// Sends the first FETCH for the cursor `name`, which the caller has just declared.
    init(connection: PostgresConnection, name: String, sql: String, binary: Bool) throws {
        self.connection = connection
        self.name = name
        self.sql = sql
        self.binary = binary
        nextCount = connection.readChunk.nextRows(after: 0, size: 0)
        connection.cursorOpened(self)
        try send()
    }

    deinit {
        for chunk in received { PQclear(chunk) }
    }

    /// Rows held in memory besides the chunk the statement reads: the chunk read ahead, if any.
    var heldRows: Int { received.reduce(0) { $0 + Int(PQntuples($1)) } }

    /// The next chunk (the caller clears it; it may hold no row), nil once every row was handed out.
    func next() throws -> OpaquePointer? {
        if received.isEmpty {
            if !inFlight && !atEnd { try send() }
            drain()
        }
        guard !received.isEmpty else {
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
        let chunk = received.removeFirst()
        // The server reads the next chunk while the caller works on this one.
        if received.isEmpty && !inFlight && !atEnd {
            do { try send() } catch {
                PQclear(chunk)
                throw error
            }
        }
        return chunk
    }

    /// Reads what has arrived of the chunk on its way, without waiting: the server blocks once
    /// the socket's buffer is full (a few hundred kB, less than a chunk), so the client empties it
    /// while it works on the chunk before, and the server goes on producing.
    func pull() {
        guard inFlight else { return }
        _ = PQconsumeInput(connection.handle)
    }

    /// Asks for the next chunk without waiting for it.
    private func send() throws {
        try connection.awaitPending()
        asked = nextCount
        // The extended protocol, whose Bind chooses the rows' format (overriding the cursor's).
        let fetch = "FETCH FORWARD \(asked) FROM \(name)"
        guard PQsendQueryParams(connection.handle, fetch, 0, nil, nil, nil, nil, binary ? 1 : 0) == 1 else {
            throw connection.error(nil, sql: sql)
        }
        inFlight = true
        connection.streamStarted(self)
    }

    /// Reads the chunk on the wire, if one is (waiting for it).
    func drain() {
        guard inFlight else { return }
        inFlight = false
        connection.streamEnded(self)
        var chunk: OpaquePointer?
        while let result = PQgetResult(connection.handle) {
            if chunk == nil { chunk = result } else { PQclear(result) }
        }
        guard let chunk, PQresultStatus(chunk) == PGRES_TUPLES_OK else {
            // The transaction is aborted: the cursor goes with it (a CLOSE would fail too).
            failure = connection.error(chunk, sql: sql)
            if let chunk { PQclear(chunk) }
            atEnd = true
            connection.cursorEnded(self)
            return
        }
        received.append(chunk)
        let count = Int(PQntuples(chunk))
        guard count < asked else {
            nextCount = connection.readChunk.nextRows(after: count, size: Int(PQresultMemorySize(chunk)))
            return
        }
        atEnd = true
        close()
    }

    /// Stops reading (a statement reset or dropped mid-way): the chunk on its way is read and
    /// dropped with the ones held, and the cursor closed.
    func abandon() {
        drain()
        for chunk in received { PQclear(chunk) }
        received.removeAll()
        failure = nil
        if !atEnd {
            atEnd = true
            close()
        }
    }

    /// Closes the cursor on the server without waiting (the next command reads the result), so
    /// that its executor's memory goes now rather than at the end of the transaction.
    private func close() {
        connection.cursorEnded(self)
        connection.sendWithoutWaiting("CLOSE \(name)")
    }

    /// The transaction the cursor lives in ends: a commit reads the rows left, anything else
    /// leaves an error for the statement's next step past the rows it holds.
    func transactionEnds(committing: Bool) throws {
        drain()
        guard !atEnd else { return }
        atEnd = true
        guard committing, PQtransactionStatus(connection.handle) == PQTRANS_INTRANS else {
            failure = PostgresError(
                state: "25000", message: "the transaction this query read in ended before its last row was read",
                sql: sql, location: connection.location)
            return
        }
        let rest = PQexecParams(connection.handle, "FETCH ALL FROM \(name)", 0, nil, nil, nil, nil, binary ? 1 : 0)
        guard let rest, PQresultStatus(rest) == PGRES_TUPLES_OK else {
            let error = connection.error(rest, sql: sql)
            PQclear(rest)
            failure = error
            throw error
        }
        received.append(rest)
    }
}

import GRDB

extension Migrations {
    /// Live pieces: a recording's chunk plan that grows while it is recorded.
    package static let livePieces = "v7-live-pieces"

    /// `record` cuts its audio into pieces at pauses while you speak and queues each as a
    /// chunk job of the recording (`job_chunk`), under a plan (`chunked_job`) that stays
    /// `open` until the recording ends: an open plan is never assembled, however many of its
    /// pieces are done. Each piece keeps where it ends (`endSeconds`), so the next command
    /// after a killed recorder knows which part of the audio no piece covers yet.
    static func addLivePieces(_ db: Database) throws {
        try db.alter(table: "chunked_job") { t in
            t.add(column: "open", .boolean).notNull().defaults(to: false)
        }
        try db.alter(table: "job_chunk") { t in
            t.add(column: "endSeconds", .double)
        }
    }
}

import Foundation
import GRDB

/// Why the store could not do what was asked, worded for the user, with a kind that says
/// whose problem it is: the user's input (not found, invalid, conflict), the audio (already
/// stored), or the storage itself (disk full, read-only, broken database).
///
/// Shaped like `TranscriptionError`: a struct over a private code, so new kinds never break
/// callers. The executable maps kinds to exit codes in one place.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case notFound, invalidInput, conflict, alreadyStored, storageFull, readOnly, storageFailure, inconsistent, tookTooLong
        }
        private let code: Code

        /// What the user named does not exist (a journal, an entry, a job).
        public static let notFound = Kind(code: .notFound)
        /// What the user gave cannot be stored (an empty name, an empty query).
        public static let invalidInput = Kind(code: .invalidInput)
        /// The request clashes with what is stored (a duplicate name, a job in the wrong state).
        public static let conflict = Kind(code: .conflict)
        /// The same audio content is in the journal already.
        public static let alreadyStored = Kind(code: .alreadyStored)
        /// The disk (or a file-size limit) has no room for the write.
        public static let storageFull = Kind(code: .storageFull)
        /// The data home cannot be written (read-only mount, permissions).
        public static let readOnly = Kind(code: .readOnly)
        /// The database could not be opened, read or written for another reason.
        public static let storageFailure = Kind(code: .storageFailure)
        /// A rule the store keeps was found broken (a row without its id): a bug, not the user's doing.
        public static let inconsistent = Kind(code: .inconsistent)
        /// The work was stopped at its time limit (a search that matched too much): it failed,
        /// and a narrower request would not.
        public static let tookTooLong = Kind(code: .tookTooLong)

        public var description: String { code.rawValue }

        /// True for the kinds that come from what the user asked (exit 2 at the command line).
        public var isUserMistake: Bool { self == .notFound || self == .invalidInput || self == .conflict }
        /// True for the kinds where the disk or database failed (exit 1: the work could not be done).
        public var isStorage: Bool { self == .storageFull || self == .readOnly || self == .storageFailure }
    }

    public let kind: Kind
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    public static func notFound(_ description: String) -> StoreError { StoreError(.notFound, description) }
    public static func invalidInput(_ description: String) -> StoreError { StoreError(.invalidInput, description) }
    public static func conflict(_ description: String) -> StoreError { StoreError(.conflict, description) }
    public static func inconsistent(_ description: String) -> StoreError { StoreError(.inconsistent, description) }

    /// The store's reading of any error a database call threw: a `StoreError` as it is,
    /// SQLite's full-disk, read-only and I/O failures as storage kinds with a sentence that
    /// says what to do, nil for anything else.
    public static func classify(_ error: any Error, home: DataHome? = nil) -> StoreError? {
        if let error = error as? StoreError { return error }
        let place = home.map { " in \($0.url.path)" } ?? ""
        if let error = error as? DatabaseError {
            switch error.extendedResultCode {
            case .SQLITE_IOERR_SHMSIZE, .SQLITE_IOERR_WRITE, .SQLITE_IOERR_TRUNCATE:
                // SQLite reports ENOSPC as SQLITE_FULL only for some writes; growing the
                // shared-memory file or the log on a full disk (or past a file-size limit) ends here.
                return StoreError(.storageFull, "the journal\(place) cannot be written: the disk is full "
                    + "(or a file-size limit was reached); free some space and try again")
            default:
                break
            }
            switch error.resultCode {
            case .SQLITE_FULL:
                return StoreError(.storageFull, "the disk is full: the journal\(place) cannot be written; free some space and try again")
            case .SQLITE_READONLY:
                return StoreError(.readOnly, "the journal\(place) is read-only: reading works, but nothing can be saved there")
            case .SQLITE_CANTOPEN, .SQLITE_PERM:
                return StoreError(.storageFailure, "cannot open the journal database\(place) (check that the folder exists and is yours)")
            case .SQLITE_IOERR:
                return StoreError(.storageFailure, "the journal database\(place) could not be read or written (I/O error); check the disk")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return StoreError(.storageFailure, "the journal database\(place) is damaged or not a voicejournal database")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return StoreError(.storageFailure, "the journal\(place) stayed locked by another voicejournal process; try again")
            default:
                return nil
            }
        }
        if error is RowDecodingError || error is DecodingError {
            // A value no voicejournal writes (a date that is not one, a kind it does not
            // know): the database was changed by something else, or an old import let it in.
            return StoreError(.storageFailure, "the journal database\(place) holds a value voicejournal cannot read"
                + "\(damagedField(error)); it was changed outside voicejournal: mend that row with sqlite3, or restore a backup")
        }
        if let error = error as? CocoaError {
            let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
            return fileError(errno: underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil, path: error.filePath, place: place)
        }
        if let error = error as? POSIXError {
            return fileError(errno: Int(error.code.rawValue), path: nil, place: place)
        }
        return nil
    }

    /// " (createdAt)": the field a decoding error names, when it names one.
    private static func damagedField(_ error: any Error) -> String {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?: path = context.codingPath
        case .keyNotFound(let key, let context)?: path = context.codingPath + [key]
        default: return ""
        }
        let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? "" : " (\(names.joined(separator: ".")))"
    }

    private static func fileError(errno: Int?, path: String?, place: String) -> StoreError? {
        let what = path ?? "a file\(place)"
        switch errno.map(Int32.init) {
        case ENOSPC, EDQUOT, EFBIG:
            return StoreError(.storageFull, "the disk is full: cannot write \(what); free some space and try again")
        case EROFS:
            return StoreError(.readOnly, "\(what) is on a read-only disk: nothing can be saved there")
        case EACCES, EPERM:
            return StoreError(.readOnly, "no permission to write \(what)")
        default:
            return nil
        }
    }
}

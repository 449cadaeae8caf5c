import GRDB

// The columns queries filter and order on, named once per table (GRDB's `Columns`
// convention), so a renamed column is one edit and a typo does not compile.

extension Journal {
    public enum Columns {
        public static let name = Column("name")
    }
}

extension Person {
    public enum Columns {
        public static let name = Column("name")
        public static let relationship = Column("relationship")
    }
}

extension Assignment {
    public enum Columns {
        public static let questionId = Column("questionId")
        public static let personId = Column("personId")
        public static let status = Column("status")
    }
}

extension Recording {
    public enum Columns {
        public static let id = Column("id")
        public static let sha256 = Column("sha256")
        public static let state = Column("state")
    }
}

extension Transcript {
    public enum Columns {
        public static let recordingId = Column("recordingId")
    }
}

extension Job {
    public enum Columns {
        public static let recordingId = Column("recordingId")
        public static let kind = Column("kind")
    }
}

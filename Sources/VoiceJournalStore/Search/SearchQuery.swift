import GRDB

/// What the user typed after `search`, read as FTS5's own query language and rewritten as a
/// safe FTS5 pattern: `"exact phrase"`, `prefix*`, `AND`, `OR`, `NOT` (upper case, as FTS5
/// has them), parentheses and `NEAR(a b, 5)`. Plain words still mean "every word": each is
/// quoted, so punctuation in a word (`don't`, `e-mail`, `-hello`) can never be read as
/// syntax. A query that breaks the language is refused with one sentence saying where.
package struct SearchQuery: Sendable, Equatable {
    /// The pattern handed to FTS5's MATCH.
    package let pattern: String
    /// The query as the user typed it, for messages.
    package let text: String

    /// The most a query may hold. FTS5's cost grows with the terms (a word repeated 30,000
    /// times took over a minute), above all with prefixes, each read as every word it
    /// begins (`a*` took about a second on 20,000 entries, and 200 of them six minutes); the
    /// reading of parentheses recurses (20,000 nested ones overflowed the stack; FTS5's own
    /// parser gives up a little past 30 levels) and FTS5 keeps a NEAR distance in 32 bits. A
    /// query a person types is far inside these; anything beyond is refused with a sentence
    /// before FTS5 sees it.
    package static let maxBytes = 8_192
    package static let maxTerms = 200
    package static let maxPrefixes = 5
    package static let maxDepth = 30
    package static let maxNearDistance = 100_000

    /// Reads `text`; throws `StoreError.invalidInput` with a readable sentence when it is
    /// not a valid query.
    package init(_ text: String) throws {
        try self.init(text, checked: true)
    }

    /// The same; with `checked` false the pattern is not matched against the probe table
    /// first (a search does that only when FTS5 fails, see `JournalStore.search`).
    init(_ text: String, checked: Bool) throws {
        guard text.utf8.count <= Self.maxBytes else {
            throw StoreError.invalidInput("the search query is too long (\(text.utf8.count) bytes; at most \(Self.maxBytes))")
        }
        let expression: String?
        do {
            let tokens = try Self.tokens(of: text)
            let terms = tokens.count(where: Parser.isTerm)
            guard terms <= Self.maxTerms else {
                throw StoreError.invalidInput("it has \(terms) words and phrases; at most \(Self.maxTerms)")
            }
            let prefixes = tokens.count { token in
                switch token {
                case .word(_, let prefix), .phrase(_, let prefix): prefix
                default: false
                }
            }
            guard prefixes <= Self.maxPrefixes else {
                throw StoreError.invalidInput("it has \(prefixes) prefixes (word*); at most \(Self.maxPrefixes), "
                    + "as each one is looked up as every word it begins")
            }
            var parser = Parser(tokens: tokens)
            expression = try parser.query()
        } catch let error as StoreError {
            throw StoreError.invalidInput("cannot search for \(Self.shortened(text)): \(error.description)")
        }
        guard let expression else { throw StoreError.invalidInput("search needs at least one word") }
        pattern = expression
        self.text = text
        if checked { try Self.check(expression, text: text) }
    }

    /// An empty full-text table made as the journal's (same columns, same tokenizer), in
    /// memory, made once per process.
    private static let probe = Result { () throws -> DatabaseQueue in
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE probe USING fts5(
                    ownerKind UNINDEXED, ownerId UNINDEXED, title, body,
                    tokenize = 'porter unicode61 remove_diacritics 2')
                """)
        }
        return queue
    }

    /// A last guard for anything the reading above lets through: the pattern is matched
    /// against the empty probe table (before a search, or once one failed). On a table that holds nothing only
    /// the pattern can fail, so a failure there is FTS5 refusing it, known by where it
    /// happened and never by the words of SQLite's error (which are never shown either).
    static func check(_ pattern: String, text: String) throws {
        let probe = try probe.get()
        do {
            _ = try probe.read { db in try Row.fetchOne(db, sql: "SELECT 1 FROM probe WHERE probe MATCH ?", arguments: [pattern]) }
        } catch is DatabaseError {
            throw StoreError.invalidInput("cannot search for \(Self.shortened(text)): "
                + Self.help("SQLite's full-text search does not accept it"))
        }
    }

    /// The query as quoted in a message: its first 80 characters.
    static func shortened(_ text: String) -> String {
        text.count > 80 ? text.prefix(79) + "…" : text
    }

    /// A sentence about what is wrong, followed by how the language goes.
    static func help(_ problem: String) -> String {
        "\(problem); words are all required, \"quoted words\" are a phrase, word* a prefix, "
            + "and AND, OR, NOT, ( ) and NEAR(a b, 10) combine them"
    }

    enum Token: Equatable {
        case word(String, prefix: Bool)
        case phrase(String, prefix: Bool)
        case and, or, not, near, open, close, comma
    }

    /// Splits the query into words, quoted phrases, operators and punctuation.
    static func tokens(of text: String) throws -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        func isBreak(_ character: Character) -> Bool { character.isWhitespace || "()\",".contains(character) }
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character == "(" || character == ")" || character == "," {
                tokens.append(character == "(" ? .open : character == ")" ? .close : .comma)
                index = text.index(after: index)
            } else if character == "\"" {
                guard let end = text[text.index(after: index)...].firstIndex(of: "\"") else {
                    throw StoreError.invalidInput(help("a quoted phrase has no closing \""))
                }
                var next = text.index(after: end)
                let prefix = next < text.endIndex && text[next] == "*"
                if prefix { next = text.index(after: next) }
                tokens.append(.phrase(String(text[text.index(after: index)..<end]), prefix: prefix))
                index = next
            } else {
                let end = text[index...].firstIndex(where: isBreak) ?? text.endIndex
                let word = String(text[index..<end])
                index = end
                switch word {
                case "AND": tokens.append(.and)
                case "OR": tokens.append(.or)
                case "NOT": tokens.append(.not)
                case "NEAR" where index < text.endIndex && text[index] == "(": tokens.append(.near)
                default:
                    let prefix = word.hasSuffix("*")
                    let stem = String(word.reversed().drop { $0 == "*" }.reversed())
                    // A bare word with no letter or digit (a dash, an ellipsis) has nothing to match.
                    if stem.contains(where: { $0.isLetter || $0.isNumber }) { tokens.append(.word(stem, prefix: prefix)) }
                }
            }
        }
        return tokens
    }

    /// A recursive-descent reader of FTS5's grammar (OR binds loosest, then AND — written or
    /// implied between neighbours — then NOT) that writes the pattern back out.
    struct Parser {
        let tokens: [Token]
        var position = 0
        /// How many ( and NEAR( the reader is inside.
        var depth = 0

        init(tokens: [Token]) { self.tokens = tokens }

        var next: Token? { position < tokens.count ? tokens[position] : nil }

        /// The whole query; nil when it holds no word at all.
        mutating func query() throws -> String? {
            guard tokens.contains(where: Self.isTerm) else { return nil }
            let expression = try orExpression()
            if let next {
                throw StoreError.invalidInput(SearchQuery.help(next == .close
                    ? "a ) has no ( before it" : "\(Self.name(next)) cannot come there"))
            }
            return expression
        }

        static func isTerm(_ token: Token) -> Bool {
            switch token {
            case .word, .phrase: true
            default: false
            }
        }

        private mutating func orExpression() throws -> String {
            var parts = [try andExpression(after: nil)]
            while next == .or {
                position += 1
                parts.append(try andExpression(after: "OR"))
            }
            return parts.joined(separator: " OR ")
        }

        private mutating func andExpression(after operatorName: String?) throws -> String {
            var parts = [try notExpression(after: operatorName)]
            while let token = next, token != .or, token != .close, token != .comma {
                var joiner: String?
                if token == .and {
                    position += 1
                    joiner = "AND"
                }
                parts.append(try notExpression(after: joiner))
            }
            return parts.joined(separator: " AND ")
        }

        private mutating func notExpression(after operatorName: String?) throws -> String {
            var expression = try primary(after: operatorName)
            while next == .not {
                position += 1
                expression += " NOT " + (try primary(after: "NOT"))
            }
            return expression
        }

        private mutating func primary(after operatorName: String?) throws -> String {
            guard let token = next else {
                throw StoreError.invalidInput(SearchQuery.help(operatorName.map { "\($0) needs words after it" }
                    ?? "a ( is never closed"))
            }
            position += 1
            switch token {
            case .word(let text, let prefix), .phrase(let text, let prefix):
                let phrase = Self.quoted(text)
                guard !phrase.isEmpty else {
                    throw StoreError.invalidInput(SearchQuery.help("\"\(text)\" holds no word to look for"))
                }
                // A plain word goes bare, as FTS5 reads it fastest; anything else as a quoted string.
                let bare = Self.isBareword(text) && { if case .word = token { true } else { false } }()
                return (bare ? text : "\"\(phrase)\"") + (prefix ? "*" : "")
            case .open:
                try enter()
                defer { depth -= 1 }
                let inner = try orExpression()
                guard next == .close else { throw StoreError.invalidInput(SearchQuery.help("a ( is never closed")) }
                position += 1
                return "(\(inner))"
            case .near:
                try enter()
                defer { depth -= 1 }
                return try near()
            default:
                let problem = switch (token, operatorName) {
                case (.close, _): "a ) has no ( before it"
                case (_, nil): "\(Self.name(token)) needs words before it"
                case (_, let name?): "\(name) needs words after it, not \(Self.name(token))"
                }
                throw StoreError.invalidInput(SearchQuery.help(problem))
            }
        }

        private mutating func enter() throws {
            depth += 1
            guard depth <= SearchQuery.maxDepth else {
                throw StoreError.invalidInput("parentheses nest more than \(SearchQuery.maxDepth) deep")
            }
        }

        /// `NEAR(phrase phrase … [, distance])`, after the word NEAR.
        private mutating func near() throws -> String {
            position += 1 // the "("
            var phrases: [String] = []
            while let token = next, Self.isTerm(token) {
                phrases.append(try primary(after: "NEAR"))
            }
            guard phrases.count >= 2 else {
                throw StoreError.invalidInput(SearchQuery.help("NEAR( ) needs two or more words, e.g. NEAR(garden rain, 5)"))
            }
            var distance = ""
            if next == .comma {
                position += 1
                guard case .word(let number, false)? = next, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else {
                    throw StoreError.invalidInput(SearchQuery.help("NEAR( ) takes a whole number of words after its comma"))
                }
                guard let value = Int(number), value <= SearchQuery.maxNearDistance else {
                    throw StoreError.invalidInput("NEAR( )'s distance is at most \(SearchQuery.maxNearDistance) words")
                }
                position += 1
                distance = ", \(value)"
            }
            guard next == .close else { throw StoreError.invalidInput(SearchQuery.help("NEAR( is never closed")) }
            position += 1
            return "NEAR(\(phrases.joined(separator: " "))\(distance))"
        }

        /// Whether FTS5 reads the text as one bareword: letters, digits and `_` of ASCII, or
        /// any non-ASCII character (the operators never get here: they are tokens of their own).
        static func isBareword(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
                scalar.value >= 0x80 || scalar == "_" || (scalar.isASCII && (("a"..."z").contains(scalar)
                    || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)))
            }
        }

        /// The text as the inside of an FTS5 string (`"` doubled), empty when it holds no
        /// letter or digit (nothing the index could match).
        static func quoted(_ text: String) -> String {
            guard text.contains(where: { $0.isLetter || $0.isNumber }) else { return "" }
            return text.replacingOccurrences(of: "\"", with: "\"\"")
        }

        static func name(_ token: Token) -> String {
            switch token {
            case .and: "AND"
            case .or: "OR"
            case .not: "NOT"
            case .near: "NEAR"
            case .open: "("
            case .close: ")"
            case .comma: "a comma"
            case .word(let text, _), .phrase(let text, _): "\"\(text)\""
            }
        }
    }
}

import Foundation

/// Word error rate: how far a transcript is from the script that was spoken, as
/// (substitutions + deletions + insertions) / words in the script, from a word-level
/// Levenshtein alignment. 0 is a perfect transcript; it can exceed 1 when the transcript
/// adds many words.
///
/// Both texts are normalised first, on purpose simply:
/// - lowercased;
/// - hyphens and dashes become spaces ("well-known" is two words);
/// - every other character that is not a letter, a digit or white space is dropped, so
///   punctuation goes away and "don't" becomes "dont" on both sides;
/// - split on white space.
/// Numbers are not converted: "twenty" and "20" are different words. The scripts the tests
/// speak therefore write no numbers and avoid words with two usual spellings.
public enum WordErrorRate {
    /// The word error rate of `hypothesis` against `reference`. An empty reference gives
    /// 0 for an empty hypothesis, else the number of inserted words.
    public static func of(_ hypothesis: String, against reference: String) -> Double {
        let expected = words(reference), heard = words(hypothesis)
        return Double(editDistance(expected, heard)) / Double(max(expected.count, 1))
    }

    /// The normalised words of a text, as the rate compares them.
    public static func words(_ text: String) -> [String] {
        var cleaned = ""
        for character in text.lowercased() {
            if character == "-" || character == "\u{2010}" || character == "\u{2013}" || character == "\u{2014}" {
                cleaned.append(" ")
            } else if character.isLetter || character.isNumber || character.isWhitespace {
                cleaned.append(character)
            }
        }
        return cleaned.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// The fewest word substitutions, deletions and insertions turning `reference` into `hypothesis`.
    public static func editDistance(_ reference: [String], _ hypothesis: [String]) -> Int {
        // One row of the classic dynamic programme at a time: row[j] is the distance between
        // the reference words seen so far and the first j hypothesis words.
        var row = Array(0...hypothesis.count)
        for (i, expected) in reference.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, heard) in hypothesis.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (expected == heard ? 0 : 1))
                diagonal = above
            }
        }
        return row[hypothesis.count]
    }

    /// The rate formatted for the test log, e.g. "0.04".
    public static func formatted(_ rate: Double) -> String { String(format: "%.3f", rate) }
}

import Foundation

/// The languages Whisper knows, by the code an upload sends (`language=de`) and the name a
/// `verbose_json` answer gives back (`"language": "german"`). A transcript stores the code,
/// whichever of the two the server answered with.
public enum SpokenLanguage {
    /// Whisper's own table: ISO-639-1 codes, plus the three it names otherwise (`haw`
    /// Hawaiian, `yue` Cantonese, `jw` Javanese).
    public static let names: [String: String] = [
        "en": "english", "zh": "chinese", "de": "german", "es": "spanish", "ru": "russian", "ko": "korean",
        "fr": "french", "ja": "japanese", "pt": "portuguese", "tr": "turkish", "pl": "polish", "ca": "catalan",
        "nl": "dutch", "ar": "arabic", "sv": "swedish", "it": "italian", "id": "indonesian", "hi": "hindi",
        "fi": "finnish", "vi": "vietnamese", "he": "hebrew", "uk": "ukrainian", "el": "greek", "ms": "malay",
        "cs": "czech", "ro": "romanian", "da": "danish", "hu": "hungarian", "ta": "tamil", "no": "norwegian",
        "th": "thai", "ur": "urdu", "hr": "croatian", "bg": "bulgarian", "lt": "lithuanian", "la": "latin",
        "mi": "maori", "ml": "malayalam", "cy": "welsh", "sk": "slovak", "te": "telugu", "fa": "persian",
        "lv": "latvian", "bn": "bengali", "sr": "serbian", "az": "azerbaijani", "sl": "slovenian", "kn": "kannada",
        "et": "estonian", "mk": "macedonian", "br": "breton", "eu": "basque", "is": "icelandic", "hy": "armenian",
        "ne": "nepali", "mn": "mongolian", "bs": "bosnian", "kk": "kazakh", "sq": "albanian", "sw": "swahili",
        "gl": "galician", "mr": "marathi", "pa": "punjabi", "si": "sinhala", "km": "khmer", "sn": "shona",
        "yo": "yoruba", "so": "somali", "af": "afrikaans", "oc": "occitan", "ka": "georgian", "be": "belarusian",
        "tg": "tajik", "sd": "sindhi", "gu": "gujarati", "am": "amharic", "yi": "yiddish", "lo": "lao",
        "uz": "uzbek", "fo": "faroese", "ht": "haitian creole", "ps": "pashto", "tk": "turkmen", "nn": "nynorsk",
        "mt": "maltese", "sa": "sanskrit", "lb": "luxembourgish", "my": "myanmar", "bo": "tibetan", "tl": "tagalog",
        "mg": "malagasy", "as": "assamese", "tt": "tatar", "haw": "hawaiian", "ln": "lingala", "ha": "hausa",
        "ba": "bashkir", "jw": "javanese", "su": "sundanese", "yue": "cantonese",
    ]

    /// Other names the servers use for the same languages (OpenAI's API and faster-whisper
    /// differ on a few).
    static let otherNames: [String: String] = [
        "castilian": "es", "flemish": "nl", "haitian": "ht", "letzeburgesch": "lb", "moldavian": "ro",
        "moldovan": "ro", "mandarin": "zh", "burmese": "my", "pushto": "ps", "panjabi": "pa", "valencian": "ca",
        "sinhalese": "si", "norwegian bokmål": "no", "bokmål": "no",
    ]

    private static let codesByName: [String: String] = {
        var codes = otherNames
        for (code, name) in names { codes[name] = code }
        return codes
    }()

    /// Whether `code` is a language Whisper knows (`de`, `DE`; not `german`).
    public static func isKnown(code: String) -> Bool { names[code.lowercased()] != nil }

    /// The code for what a server answered: a code (`de`, `de-DE`) or a name (`German`);
    /// nil for an empty answer or a language Whisper does not know (kept out rather than
    /// stored as the server's words).
    public static func code(for answer: String?) -> String? {
        guard let answer = answer?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !answer.isEmpty,
              answer.count <= 40 else { return nil }
        if names[answer] != nil { return answer }
        if let code = codesByName[answer] { return code }
        // A regional tag (`pt-BR`, `zh_Hans`): its language.
        let base = String(answer.prefix { $0 != "-" && $0 != "_" })
        return base != answer && names[base] != nil ? base : nil
    }

    /// The English name of a code (`de` → `German`), or the code itself when unknown.
    public static func displayName(of code: String) -> String {
        guard let name = names[code.lowercased()] else { return code }
        return name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

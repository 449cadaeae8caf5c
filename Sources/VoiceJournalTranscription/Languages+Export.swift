// Whisper's language table lives below the store (which keeps and filters transcripts by
// their language) and is part of what this module offers its users.
@_exported import VoiceJournalLanguages

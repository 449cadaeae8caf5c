// The library in one import: a program writes `import VoiceJournal` and gets what it builds
// on (audio, transcription, the journal store and its queue, the queue runner, batches,
// recording and playback, reflections by a chat model, mail over SMTP). Each module can still be imported on its own; the command line's
// presentation (settings, pages, terminal drawing) and `serve` are not part of it.
@_exported import VoiceJournalAudio
@_exported import VoiceJournalBatch
@_exported import VoiceJournalChat
@_exported import VoiceJournalMail
@_exported import VoiceJournalPlayback
@_exported import VoiceJournalQueue
@_exported import VoiceJournalRecording
@_exported import VoiceJournalStore
@_exported import VoiceJournalTranscription

/// Listening back: `PlayTarget` says what to play (an entry's recording, an answer, a search
/// hit, a file) with its timed transcript; `Player` plays it through an `Audio.PlaybackSession`
/// with a status line, the words being spoken and keys on a terminal.
public enum Playback {}

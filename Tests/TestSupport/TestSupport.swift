// Placeholder; helpers for tests land here.
public enum TestSupport {}

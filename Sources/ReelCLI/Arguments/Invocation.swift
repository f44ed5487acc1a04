/// What a command line asks for: run a command with its arguments, or show help.
public enum Invocation: Sendable {
    /// Run ``ParsedArguments/command`` with these arguments.
    case run(ParsedArguments)
    /// Print this text to standard output and exit successfully.
    case help(String)
}

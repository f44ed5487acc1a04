public enum ReelCommandLine { public static func main() { print("reel") } }

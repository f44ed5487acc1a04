/// A number with its noun, singular for one: `Counted.noun(1, "session")` is "1 session",
/// `Counted.noun(3, "media file")` "3 media files"; an irregular plural is given
/// (`Counted.noun(2, "person", plural: "people")`). The one way Reel's messages count things,
/// never "session(s)" or "1 sessions".
public enum Counted {
    public static func noun(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}

/// A request the studio refuses: the HTTP status and, in words, what happened and what to do.
/// The routes answer it as plain text with that status.
struct StudioRefusal: Error {
    var status: Int
    var message: String
}

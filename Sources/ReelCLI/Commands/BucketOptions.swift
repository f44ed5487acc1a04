import Foundation
import ReelS3

/// The `--s3-*` options of every command that takes an `s3://BUCKET/PREFIX` (`reel live
/// --origin`, `reel publish`, `reel backup --to`, `reel restore --from`), and the bucket they
/// describe, signed with the access key from the usual places (the environment, then
/// `~/.aws/credentials`). A secret is never printed: messages name the access key id only.
enum BucketOptions {
    static let endpoint = Option.value("s3-endpoint", placeholder: "URL",
                                       help: "S3-compatible server for an s3:// location (e.g. http://127.0.0.1:9000); default AWS's https://s3.REGION.amazonaws.com.")
    static let region = Option.value("s3-region", placeholder: "REGION", help: "The bucket's region (default AWS_REGION, AWS_DEFAULT_REGION, else us-east-1).")
    static let profile = Option.value("s3-profile", placeholder: "PROFILE",
                                      help: "Profile in ~/.aws/credentials (default AWS_PROFILE, else default); used instead of AWS_ACCESS_KEY_ID.")
    static let addressing = Option.value("s3-addressing", placeholder: "STYLE", choices: S3Location.Addressing.allCases.map(\.rawValue),
                                         help: "path (http://endpoint/BUCKET/KEY, the default with --s3-endpoint) or virtual-host (BUCKET.endpoint, AWS's default).")
    /// All four, for a command's option list.
    static let all = [endpoint, region, profile, addressing]

    /// Whether `text` names a bucket (`s3://…`, any case).
    static func isBucket(_ text: String?) -> Bool { text?.lowercased().hasPrefix("s3://") ?? false }

    /// The bucket `location` names (the value of `--OPTION`) with the `--s3-*` options; nil
    /// when it is not `s3://…`, and then no `--s3-*` option may be given.
    static func configuration(_ arguments: ParsedArguments, location text: String?, option: String, usage: S3Usage) throws -> S3Client.Configuration? {
        guard let text, isBucket(text) else {
            if let given = all.first(where: { arguments.string($0) != nil }) {
                throw arguments.refused("--\(given.name) is for an S3 bucket: give --\(option) s3://BUCKET/PREFIX with it")
            }
            return nil
        }
        do {
            return try make(location: text, endpoint: arguments.string(endpoint), region: arguments.string(region),
                            profile: arguments.string(profile), addressing: arguments.string(addressing), usage: usage)
        } catch {
            switch error {
            case .location(let why): throw arguments.refused("--\(option): \(why)")
            case .endpoint(_, fromEnvironment: false):
                throw arguments.invalid(endpoint, expected: Self.endpointForm)
            case .endpoint(let given, fromEnvironment: true): throw arguments.refused("AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL is \(given): give " + Self.endpointForm)
            case .credentials(let why): throw arguments.refused(why)
            }
        }
    }

    /// The bucket `location` names with the endpoint, region, profile and addressing of the
    /// environment alone (`AWS_ENDPOINT_URL_S3`, `AWS_REGION`, `AWS_PROFILE`, …): for
    /// `REEL_AUTO_BACKUP_DIR`, which has no options beside it.
    static func configuration(fromEnvironment location: String, usage: S3Usage) throws -> S3Client.Configuration {
        do {
            return try make(location: location, endpoint: nil, region: nil, profile: nil, addressing: nil, usage: usage)
        } catch {
            throw BackupCommand.BackupError(description: error.description)
        }
    }

    static let endpointForm = "an http:// or https:// URL with a host and no path, e.g. http://127.0.0.1:9000"

    /// Why a bucket cannot be used, in words for either caller.
    enum Problem: Error, CustomStringConvertible {
        case location(String)
        case endpoint(String, fromEnvironment: Bool)
        case credentials(String)

        var description: String {
            switch self {
            case .location(let why), .credentials(let why): why
            case .endpoint(let given, let environment): "the S3 endpoint \(given)\(environment ? " (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL)" : "") is not \(BucketOptions.endpointForm)"
            }
        }
    }

    /// The configuration from its parts; the endpoint, when not given, from
    /// `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (what AWS's own tools read), else AWS's.
    static func make(location text: String, endpoint given: String?, region: String?, profile: String?,
                     addressing: String?, usage: S3Usage) throws(Problem) -> S3Client.Configuration {
        let environment = ProcessInfo.processInfo.environment
        let location: S3Location
        do { location = try S3Location(parsing: text) } catch { throw .location("\(error)") }
        let fromEnvironment = given == nil
        var endpoint: S3Location.Endpoint?
        if let text = given ?? [environment["AWS_ENDPOINT_URL_S3"], environment["AWS_ENDPOINT_URL"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            guard let parsed = S3Location.Endpoint(parsing: text) else { throw .endpoint(text, fromEnvironment: fromEnvironment) }
            endpoint = parsed
        }
        let credentials: AWSCredentials
        do {
            credentials = try AWSCredentials.load(environment: environment, explicitProfile: profile)
        } catch {
            throw .credentials("\(error)")
        }
        return S3Client.Configuration(location: location, endpoint: endpoint, addressing: addressing.flatMap(S3Location.Addressing.init(rawValue:)),
                                      region: AWSCredentials.region(explicit: region, environment: environment), credentials: credentials,
                                      usage: usage)
    }
}

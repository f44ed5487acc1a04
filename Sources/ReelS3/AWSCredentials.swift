import Foundation

/// An access key for signing requests (SigV4). Its `description` never shows the secret.
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible {
    /// `AKIA…` (long-term) or `ASIA…` (temporary).
    public var accessKeyID: String
    /// The secret that signs; never printed.
    public var secretAccessKey: String
    /// The session token of temporary credentials (sent as `x-amz-security-token`).
    public var sessionToken: String?
    /// Where these came from, for messages: `AWS_ACCESS_KEY_ID in the environment` or `/home/me/.aws/credentials [profile]`.
    public var source: String

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
    }

    /// `access key AKIA… from SOURCE`, without the secret.
    public var description: String { "access key \(accessKeyID) from \(source)" }

    /// Why no credentials were found, naming every place looked in.
    public struct Missing: Error, Hashable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// The profiles of an AWS credentials file (INI: `[name]`, then `key = value` lines; `#`
    /// and `;` start comments). Only profiles with both an access key id and a secret are kept.
    public static func profiles(inCredentialsFile text: String, path: String) -> [String: AWSCredentials] {
        var fields: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                var name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("profile ") { name = name.dropFirst("profile ".count).trimmingCharacters(in: .whitespaces) }
                current = name
                fields[name, default: [:]] = fields[name] ?? [:]
                continue
            }
            guard let profile = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            fields[profile, default: [:]][key] = value
        }
        var result: [String: AWSCredentials] = [:]
        for (name, values) in fields {
            guard let id = values["aws_access_key_id"], !id.isEmpty, let secret = values["aws_secret_access_key"], !secret.isEmpty else { continue }
            let token = values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
            result[name] = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token, source: "\(path) [\(name)]")
        }
        return result
    }

    /// The credentials file's path: `AWS_SHARED_CREDENTIALS_FILE`, else `HOME/.aws/credentials`.
    public static func credentialsFilePath(environment: [String: String], home: String) -> String {
        if let path = environment["AWS_SHARED_CREDENTIALS_FILE"], !path.isEmpty { return path }
        return (home.hasSuffix("/") ? home : home + "/") + ".aws/credentials"
    }

    /// The profile to read: `explicit` (`--s3-profile`), else `AWS_PROFILE`, else `default`.
    public static func profileName(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let name = environment["AWS_PROFILE"], !name.isEmpty { return name }
        return "default"
    }

    /// The usual order: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with
    /// `AWS_SESSION_TOKEN`) from the environment, unless a profile was named explicitly; then
    /// the profile in the credentials file (`fileText` is nil when the file cannot be read).
    public static func resolve(environment: [String: String], explicitProfile: String?, filePath: String,
                               fileText: String?) throws(Missing) -> AWSCredentials {
        let id = environment["AWS_ACCESS_KEY_ID"] ?? "", secret = environment["AWS_SECRET_ACCESS_KEY"] ?? ""
        if explicitProfile == nil, !id.isEmpty, !secret.isEmpty {
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token, source: "AWS_ACCESS_KEY_ID in the environment")
        }
        let profile = profileName(explicit: explicitProfile, environment: environment)
        let environmentPart: String
        if explicitProfile != nil {
            environmentPart = "the environment was not used because --s3-profile was given"
        } else if id.isEmpty != secret.isEmpty {
            environmentPart = "the environment has \(id.isEmpty ? "AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID" : "AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY")"
        } else {
            environmentPart = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set"
        }
        let filePart: String
        if let fileText {
            if let found = profiles(inCredentialsFile: fileText, path: filePath)[profile] { return found }
            filePart = "\(filePath) has no profile [\(profile)] with aws_access_key_id and aws_secret_access_key"
        } else {
            filePart = "\(filePath) cannot be read"
        }
        throw Missing(description: "no S3 credentials: \(environmentPart), and \(filePart). Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                      + "or write the profile into the credentials file (AWS_SHARED_CREDENTIALS_FILE moves it; --s3-profile or AWS_PROFILE picks the profile).")
    }

    /// The region: `explicit` (`--s3-region`), else `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `us-east-1`.
    public static func region(explicit: String?, environment: [String: String]) -> String {
        for candidate in [explicit, environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return "us-east-1"
    }
}

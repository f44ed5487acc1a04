import Foundation

extension AWSCredentials {
    /// The usual places, in order (``AWSCredentials/resolve(environment:explicitProfile:filePath:fileText:)``):
    /// the environment, then the profile in `AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment, explicitProfile: String?,
                            home: String = NSHomeDirectory()) throws(Missing) -> AWSCredentials {
        let path = credentialsFilePath(environment: environment, home: home)
        let text = try? String(contentsOfFile: path, encoding: .utf8)
        return try resolve(environment: environment, explicitProfile: explicitProfile, filePath: path, fileText: text)
    }
}

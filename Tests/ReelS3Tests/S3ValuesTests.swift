import Foundation
import Testing
@testable import ReelS3

@Suite("S3 locations, error bodies and credentials")
struct S3ValuesTests {
    @Test("s3://BUCKET/PREFIX: bucket and prefix; keys are PREFIX + the stream path")
    func parsesLocations() throws {
        let location = try S3Location(parsing: "s3://reel-streams/live/tokyo/")
        #expect(location.bucket == "reel-streams" && location.prefix == "live/tokyo")
        #expect(location.key(forPath: "streams/a/playlist.m3u8") == "live/tokyo/streams/a/playlist.m3u8")
        #expect(location.description == "s3://reel-streams/live/tokyo/")
        let bare = try S3Location(parsing: "s3://my.bucket")
        #expect(bare.prefix.isEmpty && bare.key(forPath: "/streams/a/init.mp4") == "streams/a/init.mp4")
        #expect(try S3Location(parsing: "s3://abc//x///y").prefix == "x/y")
    }

    @Test("bad locations and bucket names are refused with the rule they break",
          arguments: [("http://b/p", "not an S3 location"), ("s3://", "no bucket"), ("s3://ab", "2 characters"),
                      ("s3://" + String(repeating: "a", count: 64), "64 characters"), ("s3://My-Bucket", "upper-case"),
                      ("s3://my_bucket", "other than a-z"), ("s3://-bucket", "start and end"), ("s3://bucket-", "start and end"),
                      ("s3://a..b", "two dots"), ("s3://192.168.1.10", "IP address"), ("s3://bucket/../x", "\"..\"")])
    func refusesBadLocations(_ text: String, _ why: String) {
        #expect(throws: S3Location.Error.self) { try S3Location(parsing: text) }
        do { _ = try S3Location(parsing: text) } catch { #expect(error.description.contains(why), "\(error)") }
    }

    @Test("object addresses: path-style and virtual-host; AWS's endpoint defaults to virtual-host, any other to path")
    func addresses() throws {
        let location = try S3Location(parsing: "s3://bucket/live")
        let local = try #require(S3Location.Endpoint(parsing: "http://127.0.0.1:9000/"))
        #expect(local.authority == "127.0.0.1:9000" && S3Location.defaultAddressing(for: local) == .path)
        let path = location.address(ofKey: "live/streams/a b/x.m4s", endpoint: local, addressing: .path)
        #expect(path == S3Location.ObjectAddress(authority: "127.0.0.1:9000", path: "/bucket/live/streams/a%20b/x.m4s",
                                                 url: "http://127.0.0.1:9000/bucket/live/streams/a%20b/x.m4s"))
        let aws = S3Location.Endpoint.aws(region: "eu-west-1")
        #expect(aws.description == "https://s3.eu-west-1.amazonaws.com" && S3Location.defaultAddressing(for: aws) == .virtualHost)
        let virtual = location.address(ofKey: "live/p.m3u8", endpoint: aws, addressing: .virtualHost)
        #expect(virtual.authority == "bucket.s3.eu-west-1.amazonaws.com" && virtual.path == "/live/p.m3u8")
        #expect(virtual.url == "https://bucket.s3.eu-west-1.amazonaws.com/live/p.m3u8")
        #expect(S3Location.Endpoint(parsing: "https://minio.example:443")?.authority == "minio.example", "the default port is left out of Host")
        for bad in ["ftp://x", "http://", "http://host/path", "http://host:99999", "127.0.0.1:9000", "http://u@host"] {
            #expect(S3Location.Endpoint(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("S3's error XML: code, message, entities; RequestTimeTooSkewed's times give the skew in seconds")
    func errorBodies() throws {
        // The shape S3 answers RequestTimeTooSkewed with (moto does not check the clock, so
        // this is the one place the skew message is tested).
        let skewed = try #require(S3ErrorBody(xml: """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the current time is too large.</Message>\
            <RequestTime>20130524T000000Z</RequestTime><ServerTime>2013-05-24T00:20:00Z</ServerTime>\
            <MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds><RequestId>1</RequestId></Error>
            """))
        #expect(skewed.code == "RequestTimeTooSkewed" && skewed.message.hasPrefix("The difference"))
        #expect(skewed.skewSeconds == 1200, "server 20 minutes later than the request: this clock is behind")
        let ahead = S3ErrorBody(code: "RequestTimeTooSkewed", message: "", requestTime: "20130524T010000Z", serverTime: "2013-05-24T00:00:00Z")
        #expect(ahead.skewSeconds == -3600)
        let denied = try #require(S3ErrorBody(xml: "<Error><Code>AccessDenied</Code><Message>a &amp; b &lt;c&gt; &#65;&#x42;</Message></Error>"))
        #expect(denied.code == "AccessDenied" && denied.message == "a & b <c> AB" && denied.skewSeconds == nil)
        let redirect = try #require(S3ErrorBody(xml: "<Error><Code>AuthorizationHeaderMalformed</Code><Region>eu-west-1</Region></Error>"))
        #expect(redirect.region == "eu-west-1" && redirect.message.isEmpty)
        #expect(S3ErrorBody(xml: "<html><body>502 Bad Gateway</body></html>") == nil)
        #expect(S3ErrorBody(xml: "") == nil)
    }

    static let file = """
        # comment
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = secret/default+key

        [profile work]
        aws_access_key_id=ASIAWORK
        aws_secret_access_key=work-secret
        aws_session_token = token==
        ; no secret here:
        [broken]
        aws_access_key_id = AKIABROKEN
        """

    @Test("the credentials file: profiles, '[profile x]' headers, comments; a profile without a secret is skipped")
    func credentialsFile() throws {
        let profiles = AWSCredentials.profiles(inCredentialsFile: Self.file, path: "/h/.aws/credentials")
        #expect(Set(profiles.keys) == ["default", "work"])
        let work = try #require(profiles["work"])
        #expect(work.accessKeyID == "ASIAWORK" && work.secretAccessKey == "work-secret" && work.sessionToken == "token==")
        #expect(work.source == "/h/.aws/credentials [work]")
        #expect(profiles["default"]?.secretAccessKey == "secret/default+key" && profiles["default"]?.sessionToken == nil)
        #expect(!"\(work)".contains("work-secret") && "\(work)".contains("ASIAWORK"), "the description never shows the secret")
    }

    @Test("resolution order: the environment, then AWS_PROFILE or --s3-profile in the file; missing names every place")
    func resolution() throws {
        let env = ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "t"]
        let fromEnv = try AWSCredentials.resolve(environment: env, explicitProfile: nil, filePath: "f", fileText: Self.file)
        #expect(fromEnv.accessKeyID == "AKIAENV" && fromEnv.sessionToken == "t")
        let explicit = try AWSCredentials.resolve(environment: env, explicitProfile: "work", filePath: "f", fileText: Self.file)
        #expect(explicit.accessKeyID == "ASIAWORK", "--s3-profile wins over the environment")
        let byProfile = try AWSCredentials.resolve(environment: ["AWS_PROFILE": "work"], explicitProfile: nil, filePath: "f", fileText: Self.file)
        #expect(byProfile.accessKeyID == "ASIAWORK")
        #expect(try AWSCredentials.resolve(environment: [:], explicitProfile: nil, filePath: "f", fileText: Self.file).accessKeyID == "AKIADEFAULT")
        #expect(AWSCredentials.credentialsFilePath(environment: [:], home: "/home/me") == "/home/me/.aws/credentials")
        #expect(AWSCredentials.credentialsFilePath(environment: ["AWS_SHARED_CREDENTIALS_FILE": "/etc/k"], home: "/home/me") == "/etc/k")
        do {
            _ = try AWSCredentials.resolve(environment: ["AWS_ACCESS_KEY_ID": "AKIAHALF"], explicitProfile: nil,
                                           filePath: "/home/me/.aws/credentials", fileText: nil)
            Issue.record("no credentials must throw")
        } catch {
            #expect(error.description.contains("AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY"), "\(error)")
            #expect(error.description.contains("/home/me/.aws/credentials cannot be read"), "\(error)")
        }
        do {
            _ = try AWSCredentials.resolve(environment: [:], explicitProfile: "nope", filePath: "f", fileText: Self.file)
            Issue.record("a missing profile must throw")
        } catch {
            #expect(error.description.contains("f has no profile [nope]"), "\(error)")
        }
    }

    @Test("region: --s3-region, AWS_REGION, AWS_DEFAULT_REGION, us-east-1")
    func region() {
        #expect(AWSCredentials.region(explicit: "ap-northeast-1", environment: ["AWS_REGION": "x"]) == "ap-northeast-1")
        #expect(AWSCredentials.region(explicit: nil, environment: ["AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "y"]) == "eu-west-1")
        #expect(AWSCredentials.region(explicit: nil, environment: ["AWS_DEFAULT_REGION": "us-west-2"]) == "us-west-2")
        #expect(AWSCredentials.region(explicit: nil, environment: [:]) == "us-east-1")
    }
}

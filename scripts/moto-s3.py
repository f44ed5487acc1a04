#!/usr/bin/env python3
"""The S3 test server for Reel's tests: moto (scripts/setup-moto.sh installs it) on loopback,
with signature checking on.

Usage: moto-s3.py PORT BUCKET [REGION]

Starts moto's server on 127.0.0.1:PORT with INITIAL_NO_AUTH_ACTION_COUNT=3: the first three
requests go through without a signature and make an IAM user, an inline policy allowing s3:*
(AWS managed policies are not loaded by moto by default) and an access key for it. From then
on every request is checked (SigV4: a wrong secret gets 403 SignatureDoesNotMatch). With that
key it creates BUCKET.

A public-read bucket, as a player sees it: moto 5.2.5 with signature checks on answers an
unsigned request with 500 (it reads the Authorization header unconditionally; a bucket policy
does not help), so a small WSGI layer in front signs every GET and HEAD that arrives without
an Authorization header with the same key, using botocore's own SigV4 signer. ffmpeg then
reads a stream over plain HTTP at http://127.0.0.1:PORT/BUCKET/KEY and gets moto's real
answer (its Content-Type, Cache-Control, 404 for a missing object). Every other request,
and every request that carries a signature, reaches moto untouched: Reel's own are checked.

The body checks S3 makes and moto 5.2.5 does not, made by the same layer on every signed PUT
and POST: a body whose SHA-256 differs from `x-amz-content-sha256` (when that is a hash) is
refused with 400 XAmzContentSHA256Mismatch, and one whose MD5 differs from `Content-MD5`, or
whose SHA-256 differs from `x-amz-checksum-sha256`, with 400 BadDigest, in S3's XML. So a test
sees the server refuse a part that does not match its checksums, as S3 would.

With REEL_MOTO_ACCESS_LOG=FILE every request is appended to FILE when moto has answered it,
in the tab-separated format of scripts/nginx-origin.sh's access log (msec, method, uri, status,
body_bytes_sent, request_length, content_length, request_time; the sizes and time are 0 but
content_length), so bench/latency.py reads when each object was stored. The uri loses the
prefix REEL_MOTO_LOG_STRIP (e.g. /BUCKET/PREFIX), so it reads /streams/ID/... as on an origin.

Prints one JSON line on standard output, {"endpoint", "bucket", "region", "accessKeyId",
"secretAccessKey"}, then serves until it gets SIGTERM or SIGINT. Run it with the venv's python.
"""
import base64
import hashlib
import io
import json
import os
import signal
import sys
import threading
import time

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("MOTO_ALLOW_NONEXISTENT_REGION", "false")

import boto3  # noqa: E402  (after the environment moto reads at import)
from botocore.config import Config  # noqa: E402
from botocore.auth import S3SigV4Auth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402
from moto.moto_server.threaded_moto_server import ThreadedMotoServer  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402


class SignedReads:
    """WSGI layer: signs unsigned GET and HEAD requests with the reader's key (see above), checks
    signed bodies against their digests as S3 does, and writes the access log when asked to."""

    def __init__(self, app, region):
        self.app, self.region, self.credentials = app, region, None
        path = os.environ.get("REEL_MOTO_ACCESS_LOG")
        self.log = open(path, "a", buffering=1, encoding="utf-8") if path else None
        self.strip = os.environ.get("REEL_MOTO_LOG_STRIP", "")
        self.log_lock = threading.Lock()

    def __call__(self, environ, start_response):
        if self.log is None:
            return self.answer(environ, start_response)
        status = []

        def recording(code, headers, *rest):
            status.append(code.split(" ", 1)[0])
            return start_response(code, headers, *rest)

        body = list(self.answer(environ, start_response=recording))
        uri = environ.get("PATH_INFO", "/")
        if self.strip and uri.startswith(self.strip):
            uri = uri[len(self.strip):]
        line = "\t".join([f"{time.time():.3f}", environ.get("REQUEST_METHOD", "-"), uri, status[0] if status else "-",
                          "0", "0", environ.get("CONTENT_LENGTH") or "-", "0"])
        with self.log_lock:
            self.log.write(line + "\n")
        return body

    def answer(self, environ, start_response):
        refusal = self.body_refusal(environ)
        if refusal is not None:
            code, message = refusal
            body = (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
                    f'<Message>{message}</Message></Error>').encode()
            start_response("400 Bad Request", [("Content-Type", "application/xml"), ("Content-Length", str(len(body)))])
            return [body]
        if (self.credentials is not None and environ.get("REQUEST_METHOD") in ("GET", "HEAD")
                and "HTTP_AUTHORIZATION" not in environ):
            host = environ.get("HTTP_HOST", "127.0.0.1")
            query = environ.get("QUERY_STRING", "")
            url = f"http://{host}{environ.get('RAW_URI') or environ.get('PATH_INFO', '/')}"
            if query and "?" not in url:
                url += "?" + query
            request = AWSRequest(method=environ["REQUEST_METHOD"], url=url, headers={"Host": host})
            S3SigV4Auth(self.credentials, "s3", self.region).add_auth(request)
            for name, value in request.headers.items():
                environ["HTTP_" + name.upper().replace("-", "_")] = value
        return self.app(environ, start_response)

    @staticmethod
    def body_refusal(environ):
        """S3's body checks (see above) on a signed PUT or POST: (code, message), or None when the
        body matches what its headers claim. The body read here is put back for moto."""
        if environ.get("REQUEST_METHOD") not in ("PUT", "POST") or "HTTP_AUTHORIZATION" not in environ:
            return None
        length = environ.get("CONTENT_LENGTH") or ""
        stream = environ["wsgi.input"]
        if length.isdigit():
            body = stream.read(int(length))
        elif environ.get("wsgi.input_terminated"):  # chunked: the stream ends with the body
            body = stream.read()
        else:
            return None
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        claimed = environ.get("HTTP_X_AMZ_CONTENT_SHA256", "")
        if len(claimed) == 64 and hashlib.sha256(body).hexdigest() != claimed.lower():
            return "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed."
        md5 = environ.get("HTTP_CONTENT_MD5")
        if md5 is not None and base64.b64encode(hashlib.md5(body).digest()).decode() != md5:
            return "BadDigest", "The Content-MD5 you specified did not match what we received."
        sha256 = environ.get("HTTP_X_AMZ_CHECKSUM_SHA256")
        if sha256 is not None and base64.b64encode(hashlib.sha256(body).digest()).decode() != sha256:
            return "BadDigest", "The SHA256 you specified did not match the calculated checksum."
        return None


class PublicReadServer(ThreadedMotoServer):
    """moto's threaded server with ``SignedReads`` in front."""

    def __init__(self, port, region):
        super().__init__(ip_address="127.0.0.1", port=port, verbose=False)
        self.reads = SignedReads(DomainDispatcherApplication(create_backend_app), region)

    def _server_entry(self) -> None:
        self._server = make_server(self._ip_address, self._port, self.reads, True, request_handler=MotoRequestHandler)
        self._server_ready_event.set()
        self._server.serve_forever()


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print("usage: moto-s3.py PORT BUCKET [REGION]", file=sys.stderr)
        return 2
    port, bucket = int(sys.argv[1]), sys.argv[2]
    region = sys.argv[3] if len(sys.argv) == 4 else "us-east-1"
    server = PublicReadServer(port, region)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    config = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})

    # The three unauthenticated requests.
    iam = boto3.client("iam", endpoint_url=endpoint, region_name=region,
                       aws_access_key_id="setup", aws_secret_access_key="setup", config=config)
    iam.create_user(UserName="reel")
    iam.put_user_policy(UserName="reel", PolicyName="s3-all", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
    }))
    key = iam.create_access_key(UserName="reel")["AccessKey"]

    # Signed from here on.
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name=region, aws_access_key_id=key["AccessKeyId"],
                      aws_secret_access_key=key["SecretAccessKey"], config=config)
    if region == "us-east-1":
        s3.create_bucket(Bucket=bucket)
    else:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region})
    server.reads.credentials = Credentials(key["AccessKeyId"], key["SecretAccessKey"])

    print(json.dumps({"endpoint": endpoint, "bucket": bucket, "region": region,
                      "accessKeyId": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"]}), flush=True)

    done = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: done.set())
    done.wait()
    # Not server.stop(): it joins the connection threads, and a player's keep-alive connection
    # can hold it for minutes. The state is in memory and goes with the process anyway.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())

# POSTs stdin to argv[1] with Python's urllib (the headers as JSON in argv[2]) and prints what the
# client read as one JSON line: {"status", "body"} for an answer (urllib raises HTTPError for a
# 4xx, whose body is read the same way), {"error"} when the client got no answer (a reset, a
# broken pipe). For the tests of answers that a client must read while it is still sending.
import json
import sys
import urllib.error
import urllib.request

url, headers = sys.argv[1], json.loads(sys.argv[2])
body = sys.stdin.buffer.read()
request = urllib.request.Request(url, data=body, headers=headers, method="POST")
try:
    with urllib.request.urlopen(request, timeout=30) as answer:
        print(json.dumps({"status": answer.status, "body": answer.read().decode()}))
except urllib.error.HTTPError as error:
    print(json.dumps({"status": error.code, "body": error.read().decode()}))
except (urllib.error.URLError, OSError) as error:
    print(json.dumps({"error": repr(error)}))

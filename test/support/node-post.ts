// POSTs stdin to argv[3] with Node's fetch (argv[2] `fetch`) or Node's http.request (`http`: the
// whole body in `end`, as most code sends it; `http-chunked`: in 64 KiB writes without
// Content-Length), the headers as JSON in argv[4], and prints what the client read as one JSON
// line: {"status", "body"} for an answer, {"error"} when it got no answer (a reset, EPIPE). A
// process of its own, as a real client is: one that shares the server's event loop reads answers
// that a client elsewhere loses. The Node counterpart of urllib-post.py.
import { request } from 'node:http';
import { buffer } from 'node:stream/consumers';

type Outcome = { status: number; body: string } | { error: string };

const [mode, url, headersJson] = process.argv.slice(2) as [string, string, string];
const headers = JSON.parse(headersJson) as Record<string, string>;
const body = await buffer(process.stdin);

async function viaFetch(): Promise<Outcome> {
  try {
    const answer = await fetch(url, { method: 'POST', headers, body });
    return { status: answer.status, body: await answer.text() };
  } catch (error) {
    return { error: String((error as Error).cause ?? error) };
  }
}

function viaHttp(chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', (error) => resolve({ error: String(error) }));
    });
    req.on('error', (error) => resolve({ error: String(error) }));
    if (!chunked) return void req.end(body);
    let sent = 0;
    const write = () => {
      while (sent < body.length) {
        const chunk = body.subarray(sent, sent + 64 * 1024);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

const outcome = mode === 'fetch' ? await viaFetch() : await viaHttp(mode === 'http-chunked');
process.stdout.write(`${JSON.stringify(outcome)}\n`);

// An S3-protocol server (s3rver) for the storage tests, in its own process so that its memory
// and CPU do not mix with the server's under test. Prints {"port": n} once listening; stops on
// SIGTERM or when its parent goes away.
import S3rver from 's3rver';

const [directory = '', bucket = 'bucket'] = process.argv.slice(2);
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
const stop = () => void server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);

import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A certificate and its key as PEM files, and the certificate's SHA-256 fingerprint. */
export interface SelfSigned {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly fingerprint256: string;
}

/**
 * Makes a self-signed P-256 certificate for `localhost` and `127.0.0.1` (valid two days) with the
 * machine's `openssl`, as `<dir>/<name>.cert.pem` and `<dir>/<name>.key.pem`. Self-signed with
 * `CA:TRUE`, so a client that trusts the certificate file trusts the server that presents it.
 */
export function makeSelfSigned(dir: string, name: string): SelfSigned {
  const certFile = join(dir, `${name}.cert.pem`);
  const keyFile = join(dir, `${name}.key.pem`);
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", `/CN=localhost`],
      ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
    ],
    { stdio: "ignore" },
  );
  const cert = readFileSync(certFile, "utf8");
  return { certFile, keyFile, cert, fingerprint256: new X509Certificate(cert).fingerprint256 };
}

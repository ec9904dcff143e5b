import { createPrivateKey, X509Certificate } from "node:crypto";
import { createSecureContext, type SecureContextOptions } from "node:tls";
import { readLocalFile } from "../local-files/index.ts";

/** Why `brigade serve --tls-cert/--tls-key` could not use the files it was given. */
export const TLS_FILE_ERROR_CODES = [
  "tls_cert_unreadable",
  "tls_key_unreadable",
  "tls_cert_invalid",
  "tls_key_invalid",
  "tls_key_mismatch",
] as const;

/** One of {@link TLS_FILE_ERROR_CODES}. */
export type TlsFileErrorCode = (typeof TLS_FILE_ERROR_CODES)[number];

const MESSAGES: Readonly<Record<TlsFileErrorCode, string>> = {
  tls_cert_unreadable:
    "the --tls-cert file cannot be read (missing, not a regular file, no permission, or over 1 MiB)",
  tls_key_unreadable:
    "the --tls-key file cannot be read (missing, not a regular file, no permission, or over 1 MiB)",
  tls_cert_invalid: "the --tls-cert file holds no PEM certificate",
  tls_key_invalid: "the --tls-key file holds no unencrypted PEM private key",
  tls_key_mismatch: "the --tls-key private key does not belong to the --tls-cert certificate",
};

/** Largest certificate chain or key file read, bytes: far above any real PEM file. */
const MAX_PEM_BYTES = 1024 * 1024;

/**
 * The TLS files cannot be used. The message is fixed: it never names a path or any content.
 */
export class TlsFileError extends Error {
  readonly code: TlsFileErrorCode;
  constructor(code: TlsFileErrorCode) {
    super(MESSAGES[code]);
    this.name = "TlsFileError";
    this.code = code;
  }
}

/** Where the certificate chain and its private key are (PEM files). */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * Reads and checks a certificate chain and its private key: both readable PEM, the key not
 * encrypted, and the key the one of the first (leaf) certificate. The result is ready for
 * `https.createServer` and `tls.Server#setSecureContext`. Read afresh on every call, so a reload
 * picks up renewed files.
 *
 * @throws TlsFileError with the first problem found.
 * @example const pair = loadTlsPair({ certFile: "/etc/brigade/cert.pem", keyFile: "/etc/brigade/key.pem" });
 */
export function loadTlsPair(files: TlsFiles): { readonly cert: string; readonly key: string } {
  const cert = readPem(files.certFile, "tls_cert_unreadable");
  const key = readPem(files.keyFile, "tls_key_unreadable");
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch {
    throw new TlsFileError("tls_cert_invalid");
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey({ key, format: "pem" });
  } catch {
    throw new TlsFileError("tls_key_invalid");
  }
  if (!leaf.checkPrivateKey(privateKey)) throw new TlsFileError("tls_key_mismatch");
  const pair: SecureContextOptions = { cert, key };
  try {
    createSecureContext(pair);
  } catch {
    // The leaf matched the key, so what OpenSSL refuses is the chain itself.
    throw new TlsFileError("tls_cert_invalid");
  }
  return { cert, key };
}

/**
 * Reads a PEM file through local-files: a symbolic link is followed (certificate tools keep
 * `live/` links to dated files), a FIFO never hangs the read, and anything over the cap is refused.
 */
function readPem(path: string, unreadable: TlsFileErrorCode): string {
  const read = readLocalFile(path, { maxBytes: MAX_PEM_BYTES, followSymlink: true });
  if (!read.ok) throw new TlsFileError(unreadable);
  return Buffer.from(read.bytes).toString("utf8");
}

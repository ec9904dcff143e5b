import { describe, expect, test } from "vitest";
import { type ProcessSignature, processClient, signatureMatches } from "./process-signature.ts";

const TOOL: ProcessSignature = {
  executables: ["toolcli"],
  folders: ["/node_modules/@acme/toolcli/"],
};

describe("signatureMatches", () => {
  test("the executable by its program's last segment, or by comm", () => {
    expect(
      signatureMatches({ comm: "toolcli", argv: ["/opt/bin/toolcli", "--resume"] }, TOOL),
    ).toBe(true);
    // A shebang script: comm is the script's name, argv[0] its interpreter.
    expect(signatureMatches({ comm: "toolcli", argv: ["/bin/sh", "./toolcli", "x"] }, TOOL)).toBe(
      true,
    );
    expect(signatureMatches({ comm: "2.1.0", argv: ["toolcli"] }, TOOL)).toBe(true);
  });

  test("a runtime's script by its name, or any runtime argument inside the install folder", () => {
    expect(signatureMatches({ comm: "node", argv: ["node", "/usr/local/bin/toolcli"] }, TOOL)).toBe(
      true,
    );
    const inFolder = {
      comm: "node",
      argv: [
        "/usr/bin/node",
        "--max-old-space-size=4096",
        "/u/lib/node_modules/@acme/toolcli/cli.js",
      ],
    };
    expect(signatureMatches(inFolder, TOOL)).toBe(true);
    expect(
      signatureMatches({ comm: "bun", argv: ["bun", "/x/node_modules/@acme/toolcli/a.js"] }, TOOL),
    ).toBe(true);
    // A native program inside the folder.
    expect(
      signatureMatches(
        { comm: "helper", argv: ["/x/node_modules/@acme/toolcli/vendor/helper"] },
        TOOL,
      ),
    ).toBe(true);
  });

  test("names are whole: a prefix, a suffix, another runtime's script, an option's value are not the client", () => {
    const others = [
      { comm: "toolcli-notes", argv: ["toolcli-notes"] },
      { comm: "mytoolcli", argv: ["/usr/bin/mytoolcli"] },
      { comm: "node", argv: ["node", "/srv/app/server.js", "toolcli"] },
      { comm: "node", argv: ["node", "/srv/app/server.js", "--log", "/var/log/toolcli"] },
      { comm: "node", argv: ["node", "/u/lib/node_modules/@acme/toolcli-extra/cli.js"] },
      // A non-runtime's argument inside the folder: an editor on the client's files.
      { comm: "vim", argv: ["vim", "/u/lib/node_modules/@acme/toolcli/cli.js"] },
      { comm: "less", argv: ["less", "/usr/local/bin/toolcli"] },
      { comm: "", argv: [] },
    ];
    for (const look of others)
      expect(signatureMatches(look, TOOL), look.argv.join(" ")).toBe(false);
  });
});

describe("processClient", () => {
  test("the first signature matched, by its name; none for anything else", () => {
    const signatures = { first: TOOL, second: { executables: ["other"], folders: [] } };
    expect(processClient({ comm: "other", argv: ["other"] }, signatures)).toBe("second");
    expect(processClient({ comm: "toolcli", argv: ["toolcli"] }, signatures)).toBe("first");
    expect(processClient({ comm: "bash", argv: ["-bash"] }, signatures)).toBeUndefined();
  });
});

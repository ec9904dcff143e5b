import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Context, Env, Hono } from "hono";
import { BapError, type TeamInvitationsResult } from "../../protocol/index.ts";
import type { BrigadeService, WebIdentity } from "../../service/index.ts";
import { httpStatusFor } from "../http-status.ts";
import { DashboardStreams, openDashboardStream, TeamBell } from "./dashboard-events.ts";
import {
  type ComposeDraft,
  type DashboardViewName,
  dashboardPage,
  loginPage,
  notice,
  plainPage,
  VIEW_PATHS,
} from "./dashboard-pages.ts";
import {
  clearedSessionCookie,
  csrfMatches,
  csrfToken,
  DASHBOARD_HEADERS,
  readForm,
  sameOrigin,
  sessionCookie,
  sessionSecretOf,
} from "./dashboard-security.ts";
import { DASHBOARD_CSS } from "./dashboard-style.ts";
import { type Html, html } from "./html.ts";

/** What the dashboard needs from `brigade serve`. */
export interface DashboardOptions {
  /** The server speaks TLS: the cookie is `Secure` and `__Host-`. */
  readonly tls: boolean;
  /** The version the footer shows. */
  readonly version: string;
  /**
   * The scheme a trusted TLS-terminating proxy says the browser used (`https`), for the origin
   * check; `undefined` without such a proxy.
   */
  readonly forwardedProto?: (c: Context) => string | undefined;
}

/** The dashboard of one server: its team bell and open streams (for shutdown and the tests). */
export interface Dashboard {
  readonly bell: TeamBell;
  readonly streams: DashboardStreams;
}

/** The compiled page script beside this module (`npm run build`), or `null` when not built. */
function loadClientScript(): string | null {
  try {
    return readFileSync(new URL("./client/dashboard-client.js", import.meta.url), "utf8");
  } catch {
    return null;
  }
}

/** A signed-in request: who, and the cookie's secret. */
interface SignedIn {
  readonly identity: WebIdentity;
  readonly secret: string;
}

/**
 * Mounts the dashboard (docs/52-dashboard.md) on `app`: the views under `/dashboard`, the login
 * exchange, sign-out, the held and admin actions (form posts, each CSRF-checked), the event
 * stream and the two static assets. Every answer carries {@link DASHBOARD_HEADERS}.
 */
export function mountDashboard<E extends Env>(
  app: Hono<E>,
  service: BrigadeService,
  options: DashboardOptions,
): Dashboard {
  const bell = new TeamBell();
  const streams = new DashboardStreams();
  const script = loadClientScript();
  const tls = options.tls;

  const page = (c: Context, status: number, text: string, cookie?: string): Response => {
    const headers: Record<string, string> = {
      ...DASHBOARD_HEADERS,
      "content-type": "text/html; charset=utf-8",
    };
    if (cookie !== undefined) headers["set-cookie"] = cookie;
    return c.body(text, status as 200, headers);
  };
  const redirect = (c: Context, to: string, cookie?: string): Response => {
    const headers: Record<string, string> = { ...DASHBOARD_HEADERS, location: to };
    if (cookie !== undefined) headers["set-cookie"] = cookie;
    return c.body(null, 303, headers);
  };
  const signedOut = (c: Context, status = 200): Response =>
    page(
      c,
      status,
      plainPage(
        "Signed out",
        html`<p>You are not signed in. Run <code>brigade dashboard</code> in your own terminal: it prints a one-time link that signs you in.</p>`,
      ),
      clearedSessionCookie(tls),
    );
  const refused = (c: Context): Response =>
    page(
      c,
      403,
      plainPage(
        "Refused",
        html`<p>This request did not come from a dashboard page of this server, so it was refused.</p>`,
      ),
    );

  const signedIn = async (c: Context): Promise<SignedIn | null> => {
    const secret = sessionSecretOf(c.req.header("cookie"), tls);
    if (secret === null) return null;
    const identity = await service.webIdentity(secret);
    return identity === null ? null : { identity, secret };
  };

  /** A state-changing post: same origin, a live session, its CSRF token; else `null`. */
  const checkedPost = async (
    c: Context,
  ): Promise<{ who: SignedIn; form: Map<string, string> } | Response> => {
    if (!sameOrigin(c.req.raw, options.forwardedProto?.(c))) return refused(c);
    const form = await readForm(c.req.raw);
    if (form === null) return refused(c);
    const who = await signedIn(c);
    if (who === null) return signedOut(c, 401);
    if (!csrfMatches(who.secret, form.get("csrf"))) return refused(c);
    return { who, form };
  };

  const invitationsOf = async (
    who: SignedIn,
    isCreator: boolean,
  ): Promise<TeamInvitationsResult | undefined> =>
    isCreator
      ? service.listInvitations(who.identity.principalRef, who.identity.teamRef)
      : undefined;

  const showView = async (
    c: Context,
    name: DashboardViewName,
    who: SignedIn,
    status = 200,
    shown?: Html,
    draft?: Omit<ComposeDraft, "key">,
  ): Promise<Response> => {
    const view = await service.dashboardView(who.identity.principalRef, who.identity.teamRef);
    const invitations = name === "admin" ? await invitationsOf(who, view.isCreator) : undefined;
    const compose: ComposeDraft = { key: randomBytes(16).toString("base64url"), ...draft };
    const text = dashboardPage(name, view, {
      csrf: csrfToken(who.secret),
      version: options.version,
      ...(invitations === undefined ? {} : { invitations }),
      ...(shown === undefined ? {} : { notice: shown }),
      ...(name === "messages" ? { compose } : {}),
    });
    return page(c, status, text);
  };

  for (const [name, path] of Object.entries(VIEW_PATHS) as [DashboardViewName, string][]) {
    app.get(path, async (c) => {
      const who = await signedIn(c);
      return who === null ? signedOut(c) : showView(c, name, who);
    });
  }

  app.get("/dashboard/login", (c) => {
    const code = c.req.query("code");
    const plausible = code !== undefined && /^[A-Za-z0-9_-]{43}$/.test(code) ? code : null;
    return page(c, 200, loginPage(plausible));
  });
  app.post("/dashboard/login", async (c) => {
    if (!sameOrigin(c.req.raw, options.forwardedProto?.(c))) return refused(c);
    const form = await readForm(c.req.raw);
    const code = form?.get("code");
    const opened = code === undefined ? null : await service.redeemWebLogin(code);
    if (opened === null) {
      return page(
        c,
        403,
        plainPage(
          "Link used or expired",
          html`<p>This sign-in link was already used, has expired, or is not one of this server's. A link works once, for 5 minutes. Run <code>brigade dashboard</code> in your terminal for a new one.</p>`,
        ),
      );
    }
    const maxAge = Math.round((opened.expiresAt - opened.openedAt) / 1000);
    return redirect(c, VIEW_PATHS.sessions, sessionCookie(opened.secret, maxAge, tls));
  });
  app.post("/dashboard/logout", async (c) => {
    const checked = await checkedPost(c);
    if (checked instanceof Response) return checked;
    await service.endWebSession(checked.who.secret);
    return redirect(c, VIEW_PATHS.sessions, clearedSessionCookie(tls));
  });

  for (const decision of ["release", "refuse"] as const) {
    app.post(`/dashboard/held/${decision}`, async (c) => {
      const checked = await checkedPost(c);
      if (checked instanceof Response) return checked;
      const { who, form } = checked;
      try {
        await service.decideHeld(
          who.identity.principalRef,
          who.identity.teamRef,
          form.get("message_id") ?? "",
          decision,
        );
      } catch (error) {
        if (!(error instanceof BapError)) throw error;
        return showView(
          c,
          "held",
          who,
          httpStatusFor(error.code),
          notice("error", html`That message is no longer held for you.`),
        );
      }
      bell.ring(who.identity.teamRef);
      return redirect(c, VIEW_PATHS.held);
    });
  }

  // A person writes to a session as themselves (capability message.person): the server stamps
  // the sender; a second submit of one form (its key) sends nothing twice.
  app.post("/dashboard/compose", async (c) => {
    const checked = await checkedPost(c);
    if (checked instanceof Response) return checked;
    const { who, form } = checked;
    const summary = form.get("summary") ?? "";
    const draft = { to: form.get("to") ?? "", summary, body: form.get("body") ?? "" };
    try {
      await service.personSend(who.identity.principalRef, who.identity.teamRef, {
        recipient_session_id: draft.to,
        body: draft.body,
        ...(summary === "" ? {} : { summary }),
        idempotency_key: form.get("key") ?? "",
      });
    } catch (error) {
      if (!(error instanceof BapError)) throw error;
      const shown = notice("error", html`Not sent: ${error.message}`);
      return showView(c, "messages", who, httpStatusFor(error.code), shown, draft);
    }
    bell.ring(who.identity.teamRef);
    return redirect(c, VIEW_PATHS.messages);
  });

  /** An admin action: runs `act`, then shows the admin view with its notice. */
  const adminAction = (
    path: string,
    act: (who: SignedIn, form: Map<string, string>) => Promise<Html>,
  ): void => {
    app.post(path, async (c) => {
      const checked = await checkedPost(c);
      if (checked instanceof Response) return checked;
      const { who, form } = checked;
      let shown: Html;
      let status = 200;
      try {
        shown = notice("ok", await act(who, form));
        bell.ring(who.identity.teamRef);
      } catch (error) {
        if (!(error instanceof BapError)) throw error;
        status = httpStatusFor(error.code);
        shown = notice("error", html`Not done: ${error.message}`);
      }
      return showView(c, "admin", who, status, shown);
    });
  };
  adminAction("/dashboard/admin/rotate-secret", async (who) => {
    const r = await service.rotateSecret(who.identity.principalRef, who.identity.teamRef);
    return html`<p>The team secret was rotated (${r.invitations_revoked} invitation${r.invitations_revoked === 1 ? "" : "s"} revoked). The new secret is shown once:</p><p><code>${r.join_secret}</code></p>`;
  });
  adminAction("/dashboard/admin/invite", async (who, form) => {
    const uses = Number(form.get("uses") ?? "1");
    const seconds = Number(form.get("expires") ?? "86400");
    const r = await service.createInvitation(who.identity.principalRef, who.identity.teamRef, {
      max_uses: Number.isInteger(uses) ? uses : 0,
      expires_in_seconds: Number.isInteger(seconds) ? seconds : 0,
    });
    return html`<p>Invitation ${r.invitation_id} made, for ${r.max_uses} use${r.max_uses === 1 ? "" : "s"} until ${r.expires_at}. It is shown once; hand it over privately (<code>brigade team join</code> takes it):</p><p><code>${r.invitation}</code></p>`;
  });
  adminAction("/dashboard/admin/revoke-invite", async (who, form) => {
    const r = await service.revokeInvitation(who.identity.principalRef, who.identity.teamRef, {
      invitation_id: form.get("invitation_id") ?? "",
    });
    return html`<p>Invitation ${r.invitation_id}: ${r.state}.</p>`;
  });
  adminAction("/dashboard/admin/remove-member", async (who, form) => {
    const r = await service.revokeMember(who.identity.principalRef, who.identity.teamRef, {
      principal_ref: form.get("principal_ref") ?? "",
    });
    return html`<p>Member ${r.principal_ref} removed from the team.</p>`;
  });
  adminAction("/dashboard/admin/transfer", async (who, form) => {
    const r = await service.transferTeam(who.identity.principalRef, who.identity.teamRef, {
      principal_ref: form.get("principal_ref") ?? "",
    });
    return html`<p>The team is offered to ${r.offered_to_principal_ref} until ${r.expires_at ?? ""}; it becomes theirs if they accept by then (<code>brigade team accept-transfer</code>).</p>`;
  });

  app.get("/dashboard/events", async (c) => {
    const who = await signedIn(c);
    if (who === null) return c.body(null, 401, { ...DASHBOARD_HEADERS });
    return openDashboardStream(
      service,
      who.identity,
      who.secret,
      csrfToken(who.secret),
      bell,
      streams,
      c.req.raw.signal,
    );
  });

  app.get("/dashboard/assets/dashboard.css", (c) =>
    c.body(DASHBOARD_CSS, 200, {
      ...DASHBOARD_HEADERS,
      "content-type": "text/css; charset=utf-8",
      "cache-control": "no-cache",
    }),
  );
  app.get("/dashboard/assets/dashboard.js", (c) => {
    if (script === null) return c.body("not built", 404, { ...DASHBOARD_HEADERS });
    return c.body(script, 200, {
      ...DASHBOARD_HEADERS,
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
    });
  });

  // Browsers ask for it on every first visit: an empty answer, not an API error in the console.
  app.get("/favicon.ico", (c) => c.body(null, 204, { ...DASHBOARD_HEADERS }));

  return { bell, streams };
}

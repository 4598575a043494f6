// An invitation's link, shown to the owner once, when the invitation is sent or sent again: the
// server keeps only its hash, so it cannot be shown later; "Copy invitation link" on a pending
// invitation sends it again for a new one. Says when no e-mail left the server (SMTP_URL not
// set): the link must then reach the person another way. Takes the focus when it appears.
import { useEffect, useRef, useState } from 'react';
import type { SentInvitation } from './members-api.ts';
import { when } from './members-api.ts';

export function InvitationLinkNotice(props: { sent: SentInvitation; onClose: () => void }) {
  const { sent, onClose } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => ref.current?.focus(), []);
  const copy = () =>
    void navigator.clipboard?.writeText(sent.InvitationLink).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  const title = sent.EmailSent
    ? `Invitation sent to ${sent.Email}`
    : `No e-mail was sent to ${sent.Email}`;
  return (
    <div
      className={sent.EmailSent ? 'secret' : 'secret warning'}
      role="region"
      aria-label={title}
      tabIndex={-1}
      ref={ref}
      data-invitation-link={sent.Id}
    >
      <h3>{title}</h3>
      {sent.EmailSent ? (
        <p>
          We e-mailed the link. If it does not arrive, give them this link another way (a chat, in
          person).
        </p>
      ) : (
        <p>
          <strong>E-mail is not set up on this server</strong>, so the invitation stays unsent. Copy
          the link and give it to {sent.Name ?? sent.Email} another way (a chat, in person); ask
          your operator to set <code>SMTP_URL</code> for e-mails.
        </p>
      )}
      <p className="secret-value">
        Invitation link: <code data-secret>{sent.InvitationLink}</code>{' '}
        <button type="button" onClick={copy}>
          Copy invitation link
        </button>
        <span role="status">{copied ? ' Copied.' : ''}</span>
      </p>
      <p className="muted">
        It works once, until {when(sent.ExpirationDate)}. It is shown only now: to get a link again,
        choose Copy invitation link on the pending invitation (the earlier link then stops working).
      </p>
      <button type="button" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

// A secret the API shows once (an app's secret, a subscription key): shown until Done, then gone
// for good. Nothing keeps it: no list, no route, no "show again"; only a new one can be made
// (`renew` says how). Takes the focus when it appears (give it a new `key` for each secret).
import { useEffect, useRef, useState } from 'react';

export function SecretNotice(props: {
  title: string;
  label: string;
  secret: string;
  /** How to get a new one when this one is lost, in a sentence. */
  renew: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => ref.current?.focus(), []);
  const copy = () =>
    void navigator.clipboard?.writeText(props.secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="secret" role="region" aria-label={props.title} tabIndex={-1} ref={ref}>
      <h2>{props.title}</h2>
      <p>
        <strong>Copy it now.</strong> It is shown only this once: after you choose Done it cannot be
        shown again, here or anywhere else. {props.renew}
      </p>
      <p className="secret-value">
        {props.label}: <code data-secret>{props.secret}</code>{' '}
        <button type="button" onClick={copy}>
          Copy
        </button>
        <span role="status">{copied ? ' Copied.' : ''}</span>
      </p>
      <button type="button" onClick={props.onClose}>
        Done
      </button>
    </div>
  );
}

// A secret the API shows once (an app's secret, a subscription key): shown until dismissed.
import { useEffect, useRef } from 'react';

export function SecretNotice(props: {
  title: string;
  label: string;
  secret: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="secret" role="region" aria-label={props.title} tabIndex={-1} ref={ref}>
      <h2>{props.title}</h2>
      <p>Copy it now: it is not shown again.</p>
      <p>
        {props.label}: <code data-secret>{props.secret}</code>{' '}
        <button type="button" onClick={() => void navigator.clipboard?.writeText(props.secret)}>
          Copy
        </button>
      </p>
      <button type="button" onClick={props.onClose}>
        Done
      </button>
    </div>
  );
}

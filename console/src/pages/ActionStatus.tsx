// What an action did, in a sentence (role status), or why it failed (role alert): the place the
// focus goes after the action (give it an id, and focusLater it).
import { errorText } from '../components.tsx';

export function ActionStatus(props: { id: string; text?: string | undefined; error?: unknown }) {
  const { id, text, error } = props;
  return (
    <div tabIndex={-1} id={id} className="action-result">
      {error !== undefined && error !== null && error !== '' ? (
        <p className="error" role="alert">
          {typeof error === 'string' ? error : errorText(error)}
        </p>
      ) : (
        text && (
          <p className="ok" role="status">
            {text}
          </p>
        )
      )}
    </div>
  );
}

/**
 * An e-mail address that may wrap on a narrow screen only before « @ » and the dots, never in the
 * middle of a word.
 */
export function Email({ address }: { address: string }) {
  const parts = address.split(/(?=[@.])/);
  return (
    <span className="[overflow-wrap:normal] [word-break:normal]">
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </span>
      ))}
    </span>
  );
}

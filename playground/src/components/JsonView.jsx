// Pretty-printed JSON in a scrollable block, with an optional copy button.
import React from 'react';

export function JsonView({ value, label, testId, maxHeight }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const copy = () => navigator.clipboard?.writeText(text).catch(() => {});
  return (
    <div className="json-view">
      <button type="button" className="link copy" onClick={copy} aria-label={`Copy ${label ?? 'JSON'}`}>
        Copy
      </button>
      <pre data-testid={testId} aria-label={label} tabIndex={0} style={maxHeight ? { maxHeight } : undefined}>
        {text}
      </pre>
    </div>
  );
}

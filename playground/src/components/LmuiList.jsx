// The LMUI answer needs no renderer: its components as a list.
import React from 'react';

export function LmuiList({ message }) {
  const components = Array.isArray(message?.ui_components) ? message.ui_components : [];
  return (
    <div data-testid="lmui-list">
      {message?.response_text ? <p className="lmui-text">{message.response_text}</p> : null}
      <ol className="lmui">
        {components.map((c, i) => (
          <li key={i}>
            <code className="code">{c.type}</code> <strong>{c.label ?? c.text ?? c.id}</strong>{' '}
            <span className="muted">
              id <code>{c.id}</code>
              {Array.isArray(c.options) ? `, ${c.options.length} options` : ''}
              {c.required ? ', required' : ''}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

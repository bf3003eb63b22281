// The left column: pick or paste a tool call, choose format and generator,
// an optional API key, and Generate.
import React from 'react';
import { EXAMPLES } from '../examples.js';

const groups = [...new Set(EXAMPLES.map((e) => e.group))];

export function RequestPanel({ state, set, onPick, onGenerate, busy }) {
  const example = EXAMPLES.find((e) => e.id === state.exampleId);
  return (
    <form
      className="request"
      aria-label="Tool call"
      onSubmit={(e) => {
        e.preventDefault();
        onGenerate();
      }}
    >
      <label htmlFor="example">Example</label>
      <select id="example" value={state.exampleId} onChange={(e) => onPick(e.target.value)}>
        <option value="">(paste your own)</option>
        {groups.map((g) => (
          <optgroup key={g} label={g}>
            {EXAMPLES.filter((e) => e.group === g).map((e) => (
              <option key={e.id} value={e.id}>
                {e.title}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {example ? <p className="hint">From {example.source}.</p> : null}

      <label htmlFor="request-body">Request body (a generateUserInterface call, in any accepted shape)</label>
      <textarea
        id="request-body"
        spellCheck={false}
        value={state.text}
        onChange={(e) => set({ text: e.target.value, exampleId: '' })}
        rows={16}
      />

      <div className="row">
        <div>
          <label htmlFor="format">Format</label>
          <select id="format" value={state.format} onChange={(e) => set({ format: e.target.value })}>
            <option value="jsonforms">jsonforms</option>
            <option value="rjsf">rjsf (dgui_form)</option>
            <option value="lmui">lmui</option>
            <option value="a2ui">a2ui (v0.9 messages)</option>
            <option value="react">react (TSX module)</option>
          </select>
        </div>
        <div>
          <label htmlFor="generator">Generator</label>
          <select id="generator" value={state.generator} onChange={(e) => set({ generator: e.target.value })}>
            <option value="auto">auto</option>
            <option value="deterministic">deterministic</option>
            <option value="model">model</option>
          </select>
        </div>
      </div>

      <label htmlFor="api-key">API key (only when the worker has API_KEYS)</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        placeholder="sent as Authorization: Bearer …"
        value={state.apiKey}
        onChange={(e) => set({ apiKey: e.target.value })}
      />

      <button type="submit" className="primary wide" disabled={busy}>
        {busy ? 'Generating…' : 'Generate'}
      </button>
    </form>
  );
}

// Where the spec came from: every request this generation made (the chosen
// format first, then the projections the two renderers need, which are
// cache hits of the same spec), with the worker's headers, and the meta of
// the chosen format's answer.
import React from 'react';

const ms = (v) => (v === undefined ? '' : `${v.toFixed(1)} ms`);

/** server-timing "total;dur=3.2, kv;dur=1.0" -> "total 3.2 ms, kv 1.0 ms". */
function serverTiming(header) {
  if (!header) return '';
  return header
    .split(',')
    .map((part) => {
      const [name, ...params] = part.trim().split(';');
      const dur = params.map((p) => p.trim()).find((p) => p.startsWith('dur='));
      return dur ? `${name} ${dur.slice(4)} ms` : name;
    })
    .join(', ');
}

export function metaOf(body) {
  if (!body || typeof body !== 'object') return undefined;
  return body.meta ?? body.metadata;
}

export function Provenance({ calls }) {
  if (!calls.length) return <p className="muted">Nothing generated yet.</p>;
  const meta = metaOf(calls[0].body);
  return (
    <div data-testid="provenance">
      {meta ? (
        <dl className="meta">
          <dt>generator</dt>
          <dd data-testid="meta-generator">
            {meta.generator ?? '?'}
            {meta.generatorVersion ? ` ${meta.generatorVersion}` : ''}
            {meta.provider ? ` (${meta.provider} ${meta.model ?? ''})` : ''}
          </dd>
          <dt>cache</dt>
          <dd data-testid="meta-cache">{calls[0].headers.cache ?? meta.cache ?? '?'}</dd>
          <dt>specHash</dt>
          <dd>
            <code className="hash" data-testid="meta-spechash" title={meta.specHash}>
              {meta.specHash}
            </code>
          </dd>
          {meta.toolCallId ? (
            <>
              <dt>toolCallId</dt>
              <dd>
                <code>{meta.toolCallId}</code>
              </dd>
            </>
          ) : null}
          {meta.error ? (
            <>
              <dt>model error</dt>
              <dd>{String(meta.error)}</dd>
            </>
          ) : null}
          {Array.isArray(meta.warnings) && meta.warnings.length ? (
            <>
              <dt>warnings</dt>
              <dd>
                <ul className="plain">
                  {meta.warnings.map((w, i) => (
                    <li key={i}>
                      <code>{w.pointer}</code> {w.message ?? w.code}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <div className="table-wrap">
        <table className="calls">
          <caption className="sr-only">Requests made for this generation</caption>
          <thead>
            <tr>
              <th scope="col">request</th>
              <th scope="col">status</th>
              <th scope="col">x-genui-cache</th>
              <th scope="col">round trip</th>
              <th scope="col">server-timing</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((c, i) => (
              <tr key={i} title={c.headers.requestId ? `x-request-id ${c.headers.requestId}` : undefined}>
                <td>{c.label}</td>
                <td>
                  <span className={c.ok ? 'status good' : 'status bad'}>{c.status}</span>
                </td>
                <td data-testid={`cache-${i}`}>{c.headers.cache ?? '-'}</td>
                <td>{ms(c.ms)}</td>
                <td className="muted">{serverTiming(c.headers.serverTiming)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

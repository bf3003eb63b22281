// What /v1/submit answered for the last submission: the AG-UI tool message
// (its `content` decoded too) or, without a toolCallId, DGUI's
// dgui_response; or the 422 field errors and the raw body.
import React from 'react';
import { ErrorBox } from './ErrorBox.jsx';
import { JsonView } from './JsonView.jsx';

function decoded(content) {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

export function SubmissionPanel({ submission }) {
  if (!submission) {
    return (
      <p className="muted">
        Fill a form above and submit it: the worker checks the data against <code>output</code> and answers with the tool message for the agent.
      </p>
    );
  }
  const { from, record, error } = submission;
  if (error) return <ErrorBox title={`Submit from ${from} failed`} message={error} testId="submission-error" />;
  if (!record.ok) return <ErrorBox title={`Submission from ${from} rejected`} record={record} testId="submission-error" />;
  const message = record.body;
  // Without a toolCallId the worker answers DGUI's dgui_response (no tool
  // call id is made up); with one, the AG-UI tool message.
  const dgui = message.type === 'dgui_response';
  return (
    <div className="success-box" data-testid="tool-message" role="status">
      <h3>
        <span className="status good">{record.status}</span> {dgui ? 'dgui_response' : 'Tool message'} from {from}
      </h3>
      {dgui ? (
        <p className="muted">
          type <code>dgui_response</code>: no <code>toolCallId</code> was sent, so the data comes back as DGUI's response message
        </p>
      ) : (
        <p className="muted">
          role <code>{message.role}</code>, toolCallId <code data-testid="tool-call-id">{message.toolCallId}</code>, id <code>{message.id}</code>
        </p>
      )}
      <JsonView value={message} label={dgui ? 'dgui_response' : 'Tool message'} testId="tool-message-json" />
      <details>
        <summary>{dgui ? 'data' : 'content, decoded'}</summary>
        <JsonView value={dgui ? message.data : decoded(message.content)} label="Submitted data" />
      </details>
    </div>
  );
}

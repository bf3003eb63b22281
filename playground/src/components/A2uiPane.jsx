// The A2UI answer (format=a2ui) rendered by A2UI's reference web renderer.
// The surface's own submit button fires its action; the client message goes
// to /v1/submit as a renderer's host sends it, and the worker answers with
// the tool message or the field errors (shown in the Submission section).
import React, { useEffect, useRef, useState } from 'react';

export function A2uiPane({ answer, onAction }) {
  const host = useRef(null);
  const [failure, setFailure] = useState(null);
  useEffect(() => {
    let unmount = () => {};
    let live = true;
    import('../lazy/a2ui-surface.js')
      .then(({ mountSurface }) => {
        if (live) unmount = mountSurface(host.current, answer, onAction);
      })
      .catch((e) => setFailure(e.message));
    return () => {
      live = false;
      unmount();
    };
  }, [answer, onAction]);
  return (
    <div className="renderer a2ui-pane" data-testid="a2ui-surface">
      {failure ? <p className="error">The surface could not be rendered: {failure}</p> : null}
      <div ref={host} />
    </div>
  );
}

// Keeps a renderer crash inside its own pane, with the error on screen.
import React from 'react';

export class Boundary extends React.Component {
  constructor(props) {
    super(props);
    this.state = { error: null };
  }
  static getDerivedStateFromError(error) {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <div className="error-box" role="alert">
          <h3>{this.props.name} could not render this spec</h3>
          <pre>{String(this.state.error?.message ?? this.state.error)}</pre>
        </div>
      );
    }
    return this.props.children;
  }
}

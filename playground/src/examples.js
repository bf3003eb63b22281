// The example tool calls offered by the playground's picker.
//
// Every example of the four seed documents (/work/shared/seeds in the
// project's brief; the AG-UI generative-UI draft, DGUI, AG-UI tools, LMUI)
// that is a tool call or a schema is here, written as the request a frontend
// would POST to /v1/generate, in the different shapes the worker accepts
// (AG-UI tool call, bare arguments, OpenAI tool call, AG-UI event stream).
// Where the test fixtures already hold the seed's form, the fixture is
// imported, so the playground and the tests cannot drift apart. A few more
// fixtures show nested groups, arrays, a wizard and an approval.
//
// Fields: id (stable, used by the browser tests), group, title, source (where
// the example comes from), format (the format preselected, optional), body.
import seedAddress from '../../crates/genui-core/tests/fixtures/generate/seed-address.json';
import seedFlight from '../../crates/genui-core/tests/fixtures/generate/seed-flight.json';
import meeting from '../../crates/genui-core/tests/fixtures/generate/meeting-scheduler.json';
import usedCar from '../../crates/genui-core/tests/fixtures/generate/used-car-search.json';
import notifications from '../../crates/genui-core/tests/fixtures/generate/notification-settings.json';
import getaway from '../../crates/genui-core/tests/fixtures/generate/weekend-getaway.json';
import profile from '../../crates/genui-core/tests/fixtures/generate/profile-setup.json';
import rectangle from '../../crates/genui-core/tests/fixtures/generate/rectangle-area.json';
import confirmAction from '../../crates/genui-core/tests/fixtures/generate/confirm-action.json';
import company from '../../crates/genui-core/tests/fixtures/generate/company-nested-3-levels.json';
import invoice from '../../crates/genui-core/tests/fixtures/generate/invoice-line-items.json';
import jobApplication from '../../crates/genui-core/tests/fixtures/generate/job-application.json';
import approval from '../../crates/genui-core/tests/fixtures/generate/approval-confirmation.json';

/** Seed 000's shape: {"tool": "generateUserInterface", "arguments": {...}}. */
const agui = (args, toolCallId) => ({ tool: 'generateUserInterface', ...(toolCallId ? { toolCallId } : {}), arguments: args });

/** An OpenAI tool call: arguments as a JSON string. */
const openai = (id, args) => ({ id, type: 'function', function: { name: 'generateUserInterface', arguments: JSON.stringify(args) } });

/** Seed 002's lifecycle: START, ARGS deltas (the JSON cut in pieces), END. */
function eventStream(toolCallId, args, pieces = 3) {
  const text = JSON.stringify(args);
  const size = Math.ceil(text.length / pieces);
  const deltas = [];
  for (let i = 0; i < text.length; i += size) deltas.push(text.slice(i, i + size));
  return [
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'generateUserInterface', parentMessageId: 'msg_456' },
    ...deltas.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
    { type: 'TOOL_CALL_END', toolCallId },
  ];
}

// Seed 002's tools, their `parameters` used as the `output` a person fills.
const sendEmailParameters = {
  type: 'object',
  properties: {
    to: { type: 'string', description: 'Recipient email' },
    subject: { type: 'string', description: 'Email subject' },
    body: { type: 'string', description: 'Email content' },
  },
  required: ['to', 'subject', 'body'],
};

export const EXAMPLES = [
  // --- seed 000: the AG-UI generative-UI draft
  {
    id: 'seed000-shipping-address',
    group: 'Seed 000 · AG-UI generative UI',
    title: 'Shipping address (the draft\'s example tool call)',
    source: 'seed 000, "Example Tool Call"',
    body: agui(seedAddress),
  },
  // --- seed 001: DGUI
  {
    id: 'seed001-flight-japan',
    group: 'Seed 001 · DGUI',
    title: 'Book a flight to Japan (§3.2 dgui_form schema)',
    source: 'seed 001 §3.2, the dgui_form\'s schema',
    format: 'rjsf',
    body: { ...seedFlight, description: 'Book a Flight to Japan. ' + seedFlight.description },
  },
  {
    id: 'seed001-meeting',
    group: 'Seed 001 · DGUI',
    title: 'Schedule a meeting (ask_question example 1)',
    source: 'seed 001 §4 ask_question, example 1',
    body: meeting,
  },
  {
    id: 'seed001-used-car',
    group: 'Seed 001 · DGUI',
    title: 'Used car search (ask_question example 2)',
    source: 'seed 001 §4 ask_question, example 2',
    body: usedCar,
  },
  {
    id: 'seed001-update-address',
    group: 'Seed 001 · DGUI',
    title: 'Update my shipping address (ask_question example 3)',
    source: 'seed 001 §4 ask_question, example 3',
    body: {
      description: 'My shipping address is wrong, I moved recently: update the address.',
      data: {},
      output: {
        type: 'object',
        properties: {
          street: { type: 'string', title: 'Street' },
          city: { type: 'string', title: 'City' },
          state: { type: 'string', title: 'State' },
          zipCode: { type: 'string', title: 'Zip Code', pattern: '^[0-9]{5}(-[0-9]{4})?$' },
        },
        required: ['street', 'city', 'state', 'zipCode'],
      },
    },
  },
  {
    id: 'seed001-notifications',
    group: 'Seed 001 · DGUI',
    title: 'Notification settings (ask_question example 4)',
    source: 'seed 001 §4 ask_question, example 4',
    body: notifications,
  },
  {
    id: 'seed001-flight-next-week',
    group: 'Seed 001 · DGUI',
    title: 'Book a flight next week (ask_question example 5)',
    source: 'seed 001 §4 ask_question, example 5',
    body: {
      description: 'Book a flight for me next week.',
      data: {},
      output: {
        type: 'object',
        properties: {
          departureCity: { type: 'string', title: 'Departure City' },
          destinationCity: { type: 'string', title: 'Destination City' },
          departureDate: { type: 'string', format: 'date', title: 'Departure Date' },
          returnDate: { type: 'string', format: 'date', title: 'Return Date' },
          preferredAirline: { type: 'string', title: 'Preferred Airline' },
        },
        required: ['departureCity', 'destinationCity', 'departureDate'],
      },
    },
  },
  {
    id: 'seed001-weekend-getaway',
    group: 'Seed 001 · DGUI',
    title: 'Weekend getaway (ask_question example 6)',
    source: 'seed 001 §4 ask_question, example 6',
    body: getaway,
  },
  {
    id: 'seed001-profile',
    group: 'Seed 001 · DGUI',
    title: 'Set up my profile (ask_question example 7)',
    source: 'seed 001 §4 ask_question, example 7',
    body: profile,
  },
  {
    id: 'seed001-rectangle',
    group: 'Seed 001 · DGUI',
    title: 'Area of a rectangle (ask_question example 8)',
    source: 'seed 001 §4 ask_question, example 8',
    body: rectangle,
  },
  {
    id: 'seed001-which-item',
    group: 'Seed 001 · DGUI',
    title: '"How much does it cost?" which item (ask_question example 9)',
    source: 'seed 001 §4 ask_question, example 9',
    body: {
      description: 'How much does it cost? Confirm which item you mean.',
      data: {},
      output: {
        type: 'object',
        properties: {
          item: { type: 'string', title: 'Which item do you mean?', enum: ['Wireless headphones', 'Phone case', 'USB-C charger'] },
        },
        required: ['item'],
      },
    },
  },
  // --- seed 002: AG-UI tools
  {
    id: 'seed002-send-email',
    group: 'Seed 002 · AG-UI tools',
    title: 'sendEmail parameters (OpenAI tool call shape)',
    source: 'seed 002, "Tool Structure" (sendEmail)',
    body: openai('call_send_email', { description: 'Send an email to someone.', data: {}, output: sendEmailParameters }),
  },
  {
    id: 'seed002-event-stream',
    group: 'Seed 002 · AG-UI tools',
    title: 'Tool call lifecycle: START, ARGS deltas, END (event stream)',
    source: 'seed 002, "Tool Call Lifecycle"',
    body: eventStream('call_123', {
      description: 'Send an email to someone.',
      data: { to: 'bob@example.com', subject: 'Hi' },
      output: sendEmailParameters,
    }),
  },
  {
    id: 'seed002-confirm-action',
    group: 'Seed 002 · AG-UI tools',
    title: 'confirmAction: approve "Delete 500 old files"',
    source: 'seed 002, "Human-in-the-Loop" (confirmAction)',
    body: agui(confirmAction, 'call_confirm'),
  },
  {
    id: 'seed002-fetch-user-data',
    group: 'Seed 002 · AG-UI tools',
    title: 'fetchUserData parameters',
    source: 'seed 002, "Common Tool Types" 2',
    body: {
      description: 'Get information about a user.',
      data: {},
      output: {
        type: 'object',
        properties: { userId: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } } },
        required: ['userId'],
      },
    },
  },
  {
    id: 'seed002-navigate-to',
    group: 'Seed 002 · AG-UI tools',
    title: 'navigateTo parameters',
    source: 'seed 002, "Common Tool Types" 3',
    body: {
      description: 'Go to a different page.',
      data: {},
      output: { type: 'object', properties: { destination: { type: 'string' }, params: { type: 'object' } }, required: ['destination'] },
    },
  },
  {
    id: 'seed002-generate-image',
    group: 'Seed 002 · AG-UI tools',
    title: 'generateImage parameters (nested dimensions)',
    source: 'seed 002, "Common Tool Types" 5',
    body: {
      description: 'Create an image from description.',
      data: {},
      output: {
        type: 'object',
        properties: {
          prompt: { type: 'string' },
          style: { type: 'string' },
          dimensions: { type: 'object', properties: { width: { type: 'number' }, height: { type: 'number' } } },
        },
        required: ['prompt'],
      },
    },
  },
  {
    id: 'seed002-confirm-deletion',
    group: 'Seed 002 · AG-UI tools',
    title: 'confirmDeletion parameters (files and reason)',
    source: 'seed 002, "Complete Example: Delete Files Workflow"',
    body: {
      description: 'Ask user to confirm file deletion.',
      data: { files: ['old-report.pdf', 'draft-v1.docx'] },
      output: {
        type: 'object',
        properties: {
          files: { type: 'array', items: { type: 'string' }, description: 'List of files to delete' },
          reason: { type: 'string', description: 'Why these files should be deleted' },
        },
        required: ['files', 'reason'],
      },
    },
  },
  {
    id: 'seed002-good-schema',
    group: 'Seed 002 · AG-UI tools',
    title: '"Good schema": importance and deadline',
    source: 'seed 002, "Parameter Schema Tips" (good)',
    body: {
      description: 'Set the importance and deadline of this action.',
      data: {},
      output: {
        type: 'object',
        properties: {
          importance: { type: 'string', enum: ['low', 'medium', 'high'], description: 'How urgent is this action' },
          deadline: { type: 'string', format: 'date-time', description: 'When this must be done by' },
        },
        required: ['importance'],
      },
    },
  },
  {
    id: 'seed002-bad-schema',
    group: 'Seed 002 · AG-UI tools',
    title: '"Bad schema": x and y, no descriptions',
    source: 'seed 002, "Parameter Schema Tips" (bad)',
    body: {
      description: 'Fill in x and y.',
      data: {},
      output: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['x', 'y'] },
    },
  },
  // --- seed 003: LMUI
  {
    id: 'seed003-lmui-flight',
    group: 'Seed 003 · LMUI',
    title: 'Flight: departure city and travel class',
    source: 'seed 003, "Example Protocol Payloads"',
    format: 'lmui',
    body: {
      description: 'I can help with that! Please provide the details for your flight.',
      data: {},
      output: {
        type: 'object',
        properties: {
          departure_city: { type: 'string', title: 'Departure City' },
          travel_class: {
            type: 'string',
            title: 'Travel Class',
            oneOf: [
              { const: 'economy', title: 'Economy' },
              { const: 'business', title: 'Business' },
              { const: 'first', title: 'First Class' },
            ],
          },
        },
        required: ['departure_city', 'travel_class'],
      },
    },
  },
  // --- fixtures: what the generator does with bigger forms
  {
    id: 'fixture-company-nested',
    group: 'More forms (test fixtures)',
    title: 'Nested groups: company, headquarters, coordinates',
    source: 'fixture company-nested-3-levels',
    body: company,
  },
  {
    id: 'fixture-invoice-arrays',
    group: 'More forms (test fixtures)',
    title: 'Arrays of objects: invoice line items',
    source: 'fixture invoice-line-items',
    body: invoice,
  },
  {
    id: 'fixture-job-wizard',
    group: 'More forms (test fixtures)',
    title: 'Wizard steps: job application',
    source: 'fixture job-application, description asking for a wizard',
    body: { ...jobApplication, description: 'A step-by-step wizard: ' + jobApplication.description },
  },
  {
    id: 'fixture-approval',
    group: 'More forms (test fixtures)',
    title: 'Approval: delete 14 stale branches',
    source: 'fixture approval-confirmation',
    body: approval,
  },
];

/** Whether an example comes from one of the seed documents. */
export const isSeed = (example) => example.id.startsWith('seed');

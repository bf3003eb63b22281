// The example tool calls offered by the playground's picker.
//
// Examples from the public protocols the worker serves (AG-UI's
// generative-UI tool call and its tool guide, DGUI's questions, LMUI), each
// written as the request a frontend would POST to /v1/generate, in the
// different shapes the worker accepts (AG-UI tool call, bare arguments,
// OpenAI tool call, AG-UI event stream). Where a test fixture already holds
// the form, the fixture is imported, so the playground and the tests cannot
// drift apart. A few more fixtures show nested groups, arrays, a wizard and
// an approval.
//
// Fields: id (stable, used by the browser tests), group, title (what the
// form is), source (where the example comes from), format (the format
// preselected, optional), body.
import shippingAddress from '../../crates/genui-core/tests/fixtures/generate/seed-address.json';
import flightJapan from '../../crates/genui-core/tests/fixtures/generate/seed-flight.json';
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

/** AG-UI's tool call: {"tool": "generateUserInterface", "arguments": {...}}. */
const agui = (args, toolCallId) => ({ tool: 'generateUserInterface', ...(toolCallId ? { toolCallId } : {}), arguments: args });

/** An OpenAI tool call: arguments as a JSON string. */
const openai = (id, args) => ({ id, type: 'function', function: { name: 'generateUserInterface', arguments: JSON.stringify(args) } });

/** AG-UI's tool call lifecycle: START, ARGS deltas (the JSON cut in pieces), END. */
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

// Tools from AG-UI's tool guide, their `parameters` used as the `output` a person fills.
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
  // --- AG-UI generative UI
  {
    id: 'agui-shipping-address',
    group: 'AG-UI generative UI',
    title: 'Shipping address',
    source: 'AG-UI\'s generative-UI example tool call',
    body: agui(shippingAddress),
  },
  // --- DGUI questions
  {
    id: 'dgui-flight-japan',
    group: 'DGUI questions',
    title: 'Flight booking to Japan',
    source: 'DGUI\'s dgui_form example',
    format: 'rjsf',
    body: { ...flightJapan, description: 'Book a Flight to Japan. ' + flightJapan.description },
  },
  {
    id: 'dgui-meeting',
    group: 'DGUI questions',
    title: 'Meeting scheduler',
    source: 'DGUI\'s ask_question examples',
    body: meeting,
  },
  {
    id: 'dgui-used-car',
    group: 'DGUI questions',
    title: 'Used car search',
    source: 'DGUI\'s ask_question examples',
    body: usedCar,
  },
  {
    id: 'dgui-update-address',
    group: 'DGUI questions',
    title: 'Address update with a ZIP code pattern',
    source: 'DGUI\'s ask_question examples',
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
    id: 'dgui-notifications',
    group: 'DGUI questions',
    title: 'Notification settings',
    source: 'DGUI\'s ask_question examples',
    body: notifications,
  },
  {
    id: 'dgui-flight-next-week',
    group: 'DGUI questions',
    title: 'Flight booking next week',
    source: 'DGUI\'s ask_question examples',
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
    id: 'dgui-weekend-getaway',
    group: 'DGUI questions',
    title: 'Weekend getaway',
    source: 'DGUI\'s ask_question examples',
    body: getaway,
  },
  {
    id: 'dgui-profile',
    group: 'DGUI questions',
    title: 'Profile set-up',
    source: 'DGUI\'s ask_question examples',
    body: profile,
  },
  {
    id: 'dgui-rectangle',
    group: 'DGUI questions',
    title: 'Area of a rectangle',
    source: 'DGUI\'s ask_question examples',
    body: rectangle,
  },
  {
    id: 'dgui-which-item',
    group: 'DGUI questions',
    title: 'Which item? (a single choice)',
    source: 'DGUI\'s ask_question examples',
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
  // --- AG-UI tools
  {
    id: 'agui-tools-send-email',
    group: 'AG-UI tool parameters',
    title: 'Send an e-mail (OpenAI tool call shape)',
    source: 'AG-UI\'s tool guide',
    body: openai('call_send_email', { description: 'Send an email to someone.', data: {}, output: sendEmailParameters }),
  },
  {
    id: 'agui-tools-event-stream',
    group: 'AG-UI tool parameters',
    title: 'Send an e-mail, pre-filled (AG-UI event stream)',
    source: 'AG-UI\'s tool guide',
    body: eventStream('call_123', {
      description: 'Send an email to someone.',
      data: { to: 'bob@example.com', subject: 'Hi' },
      output: sendEmailParameters,
    }),
  },
  {
    id: 'agui-tools-confirm-action',
    group: 'AG-UI tool parameters',
    title: 'Approve "Delete 500 old files"',
    source: 'AG-UI\'s tool guide',
    body: agui(confirmAction, 'call_confirm'),
  },
  {
    id: 'agui-tools-fetch-user-data',
    group: 'AG-UI tool parameters',
    title: 'User lookup',
    source: 'AG-UI\'s tool guide',
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
    id: 'agui-tools-navigate-to',
    group: 'AG-UI tool parameters',
    title: 'Navigate to a page',
    source: 'AG-UI\'s tool guide',
    body: {
      description: 'Go to a different page.',
      data: {},
      output: { type: 'object', properties: { destination: { type: 'string' }, params: { type: 'object' } }, required: ['destination'] },
    },
  },
  {
    id: 'agui-tools-generate-image',
    group: 'AG-UI tool parameters',
    title: 'Image generation (nested dimensions)',
    source: 'AG-UI\'s tool guide',
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
    id: 'agui-tools-confirm-deletion',
    group: 'AG-UI tool parameters',
    title: 'Confirm a file deletion (files and reason)',
    source: 'AG-UI\'s tool guide',
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
    id: 'agui-tools-good-schema',
    group: 'AG-UI tool parameters',
    title: 'Importance and deadline (described fields)',
    source: 'AG-UI\'s tool guide',
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
    id: 'agui-tools-bad-schema',
    group: 'AG-UI tool parameters',
    title: 'x and y (fields without descriptions)',
    source: 'AG-UI\'s tool guide',
    body: {
      description: 'Fill in x and y.',
      data: {},
      output: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['x', 'y'] },
    },
  },
  // --- LMUI
  {
    id: 'lmui-flight',
    group: 'LMUI',
    title: 'Flight: departure city and travel class',
    source: 'LMUI\'s example payloads',
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
    group: 'Bigger forms',
    title: 'Nested groups: company, headquarters, coordinates',
    source: 'the test fixtures',
    body: company,
  },
  {
    id: 'fixture-invoice-arrays',
    group: 'Bigger forms',
    title: 'Arrays of objects: invoice line items',
    source: 'the test fixtures',
    body: invoice,
  },
  {
    id: 'fixture-job-wizard',
    group: 'Bigger forms',
    title: 'Wizard steps: job application',
    source: 'the test fixtures, with a description asking for a wizard',
    body: { ...jobApplication, description: 'A step-by-step wizard: ' + jobApplication.description },
  },
  {
    id: 'fixture-approval',
    group: 'Bigger forms',
    title: 'Approval: delete 14 stale branches',
    source: 'the test fixtures',
    body: approval,
  },
];


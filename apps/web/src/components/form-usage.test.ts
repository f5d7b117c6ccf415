import { describe, expect, it } from 'vitest';

// One pattern for every form (issue 25.12): the shared Form of components/form.tsx, which turns the
// browser's own validation off and, after a submit that ends in field errors, moves the focus to
// the error summary at the top ("Det er noe som må rettes") whose links lead to the fields. A raw
// <form> leaves the focus on the submit button. This reads every component source of the app.
const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx', '!../test/**'], { query: '?raw', import: 'default', eager: true });

/** The one file that may render the element itself. */
// Vite names a file of this folder from here (./), the others from the folder above.
const formComponent = './form.tsx';

const rawForm: [RegExp, string][] = [
  [/<form(?=[\s/>]|$)/, 'a raw <form>: use Form from components/form.tsx'],
  [/createElement\(\s*['"]form['"]/, "createElement('form'): use Form from components/form.tsx"],
];

/** The raw forms in a source text, as "line: why". */
function findings(text: string): string[] {
  return text.split('\n').flatMap((line, index) => rawForm.filter(([pattern]) => pattern.test(line)).map(([, why]) => `${index + 1}: ${why}`));
}

// One way to write a form (issue 26.3): the errors a Form shows in its summary are those of its
// useZodForm (lib/use-zod-form.ts), `errors={form.summary}`; a form whose choices are all allowed
// (nothing to check) passes none, `errors={{}}`. An error map built by hand is the second way.
const handMadeErrors = /\berrors=\{(?!\{\}\}|[\w.]+\.summary\})/;

/** The Form errors in a source text not taken from a useZodForm, as "line: text". */
function handMadeErrorMaps(text: string): string[] {
  return text.split('\n').flatMap((line, index) => (handMadeErrors.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe('every form of the web is the shared Form', () => {
  it('reads the component sources, the shared Form among them', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(Object.keys(sources)).toContain(formComponent);
    expect(findings(sources[formComponent] ?? '')).not.toEqual([]);
  });

  it('no source but components/form.tsx renders a raw <form>', () => {
    const found = Object.entries(sources)
      .filter(([path]) => path !== formComponent)
      .flatMap(([path, text]) => findings(text).map((finding) => `${path}:${finding}`));
    expect(found).toEqual([]);
  });

  it.each([['<form className={form.form} noValidate onSubmit={submit}>'], ['      <form'], ['<form>'], ['<form/>'], ["return createElement('form', { onSubmit }, children);"]])(
    'would catch %s',
    (line) => {
      expect(findings(line)).not.toEqual([]);
    },
  );

  it('leaves the shared Form and other words alone', () => {
    expect(findings("<Form className={form.form} onSubmit={submit} errors={{}}>\nimport form from './form.module.css';\n<p className={form.error}>{formatted}</p>\n<formatted-date />")).toEqual([]);
  });

  it("a Form's errors are its useZodForm's summary (or none, for a form of choices that are all allowed)", () => {
    const found = Object.entries(sources)
      .filter(([path]) => path !== formComponent)
      .flatMap(([path, text]) => handMadeErrorMaps(text).map((finding) => `${path}:${finding}`));
    expect(found).toEqual([]);
  });

  it.each([['errors={{ email: emailError }}'], ['errors={{ [emailId]: emailError }}'], ['errors={errors}'], ['errors={summaryOf(errors)}']])('would catch %s', (line) => {
    expect(handMadeErrorMaps(`<Form onSubmit={submit} ${line}>`)).not.toEqual([]);
  });

  it("leaves the hook's summary and a form without checks alone", () => {
    expect(handMadeErrorMaps('<Form onSubmit={submit} errors={invite.summary}>\n<Form errors={request.form.summary}>\n<Form onSubmit={submit} errors={{}}>')).toEqual([]);
  });
});

// The definition editor: CodeMirror 6 with the grammar's keywords coloured, line numbers,
// undo, and the checker's diagnostics underlined at their spans. Bundled by web/build.sh.
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting, defaultHighlightStyle, HighlightStyle } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags } from '@lezer/highlight';
import { keywords } from './keywords.js';

const words = new Set(keywords);

// Comments, strings, numbers, square names, the grammar's keywords, and names.
const language = StreamLanguage.define({
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^"[^"]*"?/)) return 'string';
    if (stream.match(/^[a-z][0-9]{1,2}(?![\w-])/)) return 'atom';
    if (stream.match(/^[0-9]+/)) return 'number';
    const word = stream.match(/^[A-Za-z_][\w-]*/);
    if (word) return words.has(word[0]) ? 'keyword' : /^[A-Z]/.test(word[0]) ? 'typeName' : 'variableName';
    stream.next();
    return null;
  },
});

const dark = HighlightStyle.define([
  { tag: tags.keyword, color: '#c792ea' },
  { tag: tags.comment, color: '#7f8c98', fontStyle: 'italic' },
  { tag: tags.string, color: '#c3e88d' },
  { tag: tags.number, color: '#f78c6c' },
  { tag: tags.atom, color: '#82aaff' },
  { tag: tags.typeName, color: '#ffcb6b' },
]);

export function createEditor(parent, onChange) {
  const prefersDark = matchMedia('(prefers-color-scheme: dark)').matches;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        lintGutter(),
        language,
        syntaxHighlighting(prefersDark ? dark : defaultHighlightStyle),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange();
        }),
        EditorView.theme({ '&': { height: '60vh' }, '.cm-scroller': { fontFamily: 'ui-monospace, monospace' } },
          { dark: prefersDark }),
      ],
    }),
  });
  return {
    view,
    get text() {
      return view.state.doc.toString();
    },
    set text(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    // Diagnostics as the checker gives them: byte offsets into the UTF-8 text.
    show(list) {
      const text = view.state.doc.toString();
      const toChars = byteToChar(text);
      const diagnostics = list.map((d) => ({
        from: toChars(d.offset),
        to: Math.max(toChars(d.offset + d.length), toChars(d.offset) + (d.length ? 0 : 1)),
        severity: d.severity === 'warning' ? 'warning' : 'error',
        message: d.message,
      })).map((d) => ({ ...d, from: Math.min(d.from, text.length), to: Math.min(d.to, text.length) }));
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    select(offset, length) {
      const toChars = byteToChar(view.state.doc.toString());
      const from = toChars(offset);
      view.dispatch({ selection: { anchor: from, head: toChars(offset + Math.max(length, 1)) }, scrollIntoView: true });
      view.focus();
    },
    selected() {
      const { from, to } = view.state.selection.main;
      return view.state.sliceDoc(from, to);
    },
  };
}

// Byte offsets (what the checker's spans count) to character offsets (what the editor counts).
function byteToChar(text) {
  const encoder = new TextEncoder();
  return (bytes) => {
    let chars = 0;
    let seen = 0;
    for (const c of text) {
      if (seen >= bytes) break;
      seen += encoder.encode(c).length;
      chars += c.length;
    }
    return chars;
  };
}

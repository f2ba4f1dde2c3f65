// A tiny XML well-formedness check for the SVG/JUnit tests: tags nest and close, attributes are
// quoted and unique, entities are known, text has no raw "<" or "&". Not a validating parser.
export function checkWellFormedXml(xml: string): void {
  const stack: string[] = [];
  let i = 0;
  let roots = 0;
  const text = (s: string, at: number) => {
    const bad = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(s);
    if (bad) throw new Error(`bad entity at ${at + bad.index}: ${s.slice(bad.index, bad.index + 12)}`);
  };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      if (xml.slice(i).trim()) {
        if (!stack.length) throw new Error('text after the root element');
        text(xml.slice(i), i);
      }
      break;
    }
    const between = xml.slice(i, lt);
    if (between.trim() && !stack.length) throw new Error(`text outside the root element at ${i}`);
    text(between, i);
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt);
      if (end < 0) throw new Error('unclosed comment');
      i = end + 3;
      continue;
    }
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new Error(`unclosed tag at ${lt}`);
    const tag = xml.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}> at ${lt}`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const m = /^([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*("[^"<]*"|'[^'<]*'))*)\s*$/.exec(body);
      if (!m) throw new Error(`malformed tag at ${lt}: <${tag.slice(0, 60)}>`);
      const names = [...m[2].matchAll(/([A-Za-z_][\w:.-]*)\s*=/g)].map((a) => a[1]);
      if (new Set(names).size !== names.length) throw new Error(`duplicate attribute in <${m[1]}> at ${lt}`);
      text(m[2], lt);
      if (!stack.length) roots++;
      if (!selfClosing) stack.push(m[1]);
    }
    i = gt + 1;
  }
  if (stack.length) throw new Error(`unclosed elements: ${stack.join(' > ')}`);
  if (roots !== 1) throw new Error(`expected one root element, found ${roots}`);
}

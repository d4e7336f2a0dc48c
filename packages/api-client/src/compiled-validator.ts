/**
 * A precompiled fast path for response validation.
 *
 * Why: paging 100k catalog records (~2.5 KB each), `schema.safeParse` cost 2-3x the JSON.parse
 * of the same bytes: zod copies every object and array and builds a payload per node. This
 * module walks the domain schema once and generates plain functions that check the freshly
 * parsed JSON *in place* (applying defaults in place): one function per object/array/record
 * schema with constant property names (monomorphic property access) and simple leaves (string,
 * number, nullish, enum, numeric bounds, refinements) inlined as expressions.
 *
 * Contract: `run(value)` returns exactly what `schema.parse(value)` returns (deep-equal; key
 * order may differ) or FAIL; it never accepts what zod rejects. On FAIL the caller runs zod on
 * a pristine copy to get the issues, so drift detection is exactly zod's. Schema features not
 * modelled here (transforms, pipes, strip-mode objects, tuples, ...) compile to a call of zod
 * itself for that subtree, so the contract holds for any schema; it is only faster for the
 * ones it models. `__tests__/compiled-validator.spec.ts` holds it to this with a differential fuzz.
 *
 * It reads zod's internal definitions (`_zod.def`, `_zod.optin/optout`, a check's `_zod.check`):
 * if a zod upgrade changes them, compilation throws and every response takes the zod path. It
 * needs `new Function` (Node, Electron main); where that is forbidden, the same: zod path.
 */
import type { z } from 'zod';

/**
 * `rewrote`: the value now differs from what was parsed (a default filled in, or a subtree
 * zod parsed into a copy); false when every node was only read.
 */
export type Checker = (
  value: unknown,
) => { ok: true; value: unknown; rewrote: boolean } | { ok: false };

const FAIL: unique symbol = Symbol('fail');
/** Nodes rewritten so far (defaults filled in, subtrees copied by zod): read around a run. */
let rewrites = 0;
type Run = (v: unknown) => unknown;

/** Collects the constants a generated function refers to, as `k[i]`. */
class Consts {
  readonly values: unknown[] = [];
  ref(value: unknown): string {
    this.values.push(value);
    return `k[${this.values.length - 1}]`;
  }
}

interface Compiled {
  run: Run;
  /**
   * True when `run` never mutates its input nor returns a different value than it was given.
   * Non-discriminated unions need pure options: zod tries each option on the original input.
   */
  pure: boolean;
  /**
   * For pure leaves: a JS expression, true iff the value held in variable `x` passes. Lets a
   * generated object/array function inline the check instead of calling `run`.
   */
  test?: (x: string, k: Consts) => string;
}

interface ZodInternals {
  _zod: {
    def: Record<string, unknown> & { type: string; checks?: ZodCheck[] };
    optin?: 'optional' | 'defaulted';
    optout?: 'optional';
    propValues?: Record<string, Set<unknown>>;
  };
}
interface ZodCheck {
  _zod: {
    def: Record<string, unknown> & { check: string; when?: (payload: Payload) => boolean };
    check: (payload: Payload) => unknown;
  };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}

function internals(schema: unknown): ZodInternals['_zod'] {
  const zi = (schema as Partial<ZodInternals> | null)?._zod;
  if (!zi?.def || typeof zi.def.type !== 'string') throw new Error('not a zod 4 schema');
  return zi;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Builds a function from generated source; its free names are FAIL and k (the constants). */
function generate(params: string, body: string, k: Consts): Run {
  const factory = new Function('FAIL', 'k', `return function (${params}) {\n${body}\n};`);
  return factory(FAIL, k.values) as Run;
}

/** zod itself for a subtree this compiler does not model. */
function viaZod(schema: z.ZodType): Compiled {
  return {
    run: (v) => {
      const r = schema.safeParse(v);
      if (!r.success) return FAIL;
      if (r.data !== v) rewrites++;
      return r.data;
    },
    pure: false,
  };
}

/** A leaf: `run` derived from its test expression. */
function leaf(test: (x: string, k: Consts) => string): Compiled {
  const k = new Consts();
  const expr = test('x', k);
  return { pure: true, test, run: generate('x', `return (${expr}) ? x : FAIL;`, k) };
}

/** zod's own check on a payload: true, false, FAIL (async), or a rewritten value. */
function runCheck(ch: ZodCheck, v: unknown): unknown {
  const payload: Payload = { value: v, issues: [] };
  const when = ch._zod.def.when;
  if (when && !when(payload)) return true;
  if (ch._zod.check(payload) instanceof Promise) return FAIL;
  if (payload.issues.length > 0) return false;
  return payload.value === v ? true : payload.value;
}

/**
 * A check as an inline expression on `x` (which already has the base type), with zod's own
 * semantics, or undefined when it must run through zod (`runCheck`). The common checks are
 * most of the cost: every coordinate of every geometry is a refined number.
 */
function checkExpr(ch: ZodCheck, x: string, k: Consts): string {
  const def = ch._zod.def;
  const viaCheck = () => `${k.ref((v: unknown) => runCheck(ch, v))}(${x}) === true`;
  // Length checks' default `when` ("has a length") holds for the strings and arrays they are
  // attached to; any other `when` is left to zod.
  const lengthCheck = def.check === 'min_length' || def.check === 'length_equals';
  if (def.when && !lengthCheck) return viaCheck();
  switch (def.check) {
    case 'min_length': {
      const min = def.minimum as number;
      // zod counts code points for strings; UTF-16 units bound them: < min units can never
      // pass, >= 2*min always does; only in between is the exact count needed.
      return `(Array.isArray(${x}) ? ${x}.length >= ${min} : ${x}.length >= ${2 * min} || (${x}.length >= ${min} && ${viaCheck()}))`;
    }
    case 'length_equals':
      return `(Array.isArray(${x}) ? ${x}.length === ${def.length as number} : ${viaCheck()})`;
    case 'greater_than':
    case 'less_than': {
      if (typeof def.value !== 'number') return viaCheck();
      const op = (def.check === 'greater_than' ? '>' : '<') + (def.inclusive ? '=' : '');
      return `${x} ${op} ${k.ref(def.value)}`;
    }
    case 'number_format':
      return def.format === 'safeint' ? `Number.isSafeInteger(${x})` : viaCheck();
    case 'string_format': {
      const pattern = def.pattern;
      if (def.format !== 'regex' || !(pattern instanceof RegExp)) return viaCheck();
      const p = k.ref(pattern);
      return `(${p}.lastIndex = 0, ${p}.test(${x}))`;
    }
    case 'custom': {
      // `.refine(fn)` passes when fn(value) is truthy; requiring `=== true` is conservative
      // (a truthy non-boolean or a Promise falls back to zod). `.superRefine` has no `fn`.
      if (def.type !== 'custom' || typeof def.fn !== 'function') return viaCheck();
      return `${k.ref(def.fn)}(${x}) === true`;
    }
    default:
      return viaCheck();
  }
}

class Compiler {
  private readonly done = new Map<unknown, Compiled>();

  compile(schema: z.ZodType): Compiled {
    const existing = this.done.get(schema);
    if (existing) return existing;
    const compiled = this.withChecks(schema, this.base(schema));
    this.done.set(schema, compiled);
    return compiled;
  }

  /** The schema's own checks (min, int, regex, refinements), run as zod runs them: after parse. */
  private withChecks(schema: z.ZodType, base: Compiled): Compiled {
    const checks = internals(schema).def.checks ?? [];
    if (checks.length === 0) return base;
    if (checks.some((c) => c._zod.def.check === 'overwrite')) {
      // A check that rewrites the value (trim, toLowerCase): rare in responses; zod does it.
      return viaZod(schema);
    }
    const baseTest = base.test;
    if (baseTest) {
      return leaf(
        (x, k) =>
          `(${baseTest(x, k)}) && ${checks.map((c) => `(${checkExpr(c, x, k)})`).join(' && ')}`,
      );
    }
    const k = new Consts();
    const run = k.ref(base.run);
    const tests = checks.map((c) => `if (!(${checkExpr(c, 'x', k)})) return FAIL;`).join('\n');
    return {
      pure: base.pure,
      run: generate(
        'v',
        `const x = ${run}(v);\nif (x === FAIL) return FAIL;\n${tests}\nreturn x;`,
        k,
      ),
    };
  }

  private base(schema: z.ZodType): Compiled {
    const { def } = internals(schema);
    if (def.coerce) return viaZod(schema);
    switch (def.type) {
      case 'string':
        return leaf((x) => `typeof ${x} === "string"`);
      case 'number':
        // zod rejects NaN and ±Infinity, as Number.isFinite does (and it is false for non-numbers).
        return leaf((x) => `Number.isFinite(${x})`);
      case 'boolean':
        return leaf((x) => `typeof ${x} === "boolean"`);
      case 'null':
        return leaf((x) => `${x} === null`);
      case 'unknown':
      case 'any':
        return leaf(() => 'true');
      case 'enum': {
        const values = new Set(Object.values(def.entries as Record<string, unknown>));
        return leaf((x, k) => `${k.ref(values)}.has(${x})`);
      }
      case 'literal': {
        const values = new Set(def.values as unknown[]);
        return leaf((x, k) => `${k.ref(values)}.has(${x})`);
      }
      case 'optional': {
        const innerSchema = def.innerType as z.ZodType;
        // An optional around a default substitutes the default for undefined: zod does it.
        if (internals(innerSchema).optin === 'defaulted') return viaZod(schema);
        const inner = this.compile(innerSchema);
        const t = inner.test;
        if (t) return leaf((x, k) => `${x} === undefined || (${t(x, k)})`);
        const run = inner.run;
        return { pure: inner.pure, run: (v) => (v === undefined ? undefined : run(v)) };
      }
      case 'nullable': {
        const inner = this.compile(def.innerType as z.ZodType);
        const t = inner.test;
        if (t) return leaf((x, k) => `${x} === null || (${t(x, k)})`);
        const run = inner.run;
        return { pure: inner.pure, run: (v) => (v === null ? null : run(v)) };
      }
      case 'default': {
        const run = this.compile(def.innerType as z.ZodType).run;
        // zod returns the default without validating it; `def.defaultValue` is what zod reads.
        return {
          pure: false,
          run: (v) => {
            if (v !== undefined) return run(v);
            rewrites++;
            return def.defaultValue;
          },
        };
      }
      case 'lazy':
        return this.lazy(schema, def.getter as () => z.ZodType);
      case 'array':
        return this.array(def.element as z.ZodType);
      case 'object':
        return this.object(schema, def);
      case 'record':
        return this.record(schema, def);
      case 'union':
        return this.union(schema, def);
      default:
        return viaZod(schema);
    }
  }

  /** Recursive schemas (geometry collections): compiled once, resolved at first use. */
  private lazy(schema: z.ZodType, getter: () => z.ZodType): Compiled {
    let target: Run | undefined;
    // Conservatively impure: a cycle cannot know its own purity while it is being compiled.
    const self: Compiled = {
      pure: false,
      run: (v) => (target ??= this.compile(getter()).run)(v),
    };
    this.done.set(schema, self);
    return self;
  }

  /** `o = run(x)`, FAIL out, write back a changed value (a default applied below). */
  private static callInto(k: Consts, c: Compiled, x: string, target: string): string {
    if (c.test) return `if (!(${c.test(x, k)})) return FAIL;`;
    const run = k.ref(c.run);
    return c.pure
      ? `if (${run}(${x}) === FAIL) return FAIL;`
      : `o = ${run}(${x}); if (o === FAIL) return FAIL; if (o !== ${x}) ${target} = o;`;
  }

  private array(elementSchema: z.ZodType): Compiled {
    const el = this.compile(elementSchema);
    const k = new Consts();
    const body = `if (!Array.isArray(v)) return FAIL;
let o;
for (let i = 0; i < v.length; i++) {
  const x = v[i];
  ${Compiler.callInto(k, el, 'x', 'v[i]')}
}
return v;`;
    return { pure: el.pure, run: generate('v', body, k) };
  }

  private record(schema: z.ZodType, def: Record<string, unknown>): Compiled {
    const key = internals(def.keyType);
    // Only `z.record(z.string(), ...)`: any key passes, every value is checked.
    if (key.def.type !== 'string' || key.def.coerce || (key.def.checks?.length ?? 0) > 0) {
      return viaZod(schema);
    }
    const value = this.compile(def.valueType as z.ZodType);
    const k = new Consts();
    // zod never copies an own __proto__ key into its output: let zod handle that oddity.
    const body = `if (typeof v !== "object" || v === null || Array.isArray(v) || Object.hasOwn(v, "__proto__")) return FAIL;
let o;
for (const key of Object.keys(v)) {
  const x = v[key];
  ${Compiler.callInto(k, value, 'x', 'v[key]')}
}
return v;`;
    return { pure: value.pure, run: generate('v', body, k) };
  }

  private object(schema: z.ZodType, def: Record<string, unknown>): Compiled {
    const catchall = def.catchall ? internals(def.catchall).def.type : undefined;
    // Strip mode rebuilds the object without unknown keys; other catchalls validate them: zod.
    if (catchall !== 'unknown' && catchall !== 'any' && catchall !== 'never') return viaZod(schema);
    const shape = def.shape as Record<string, z.ZodType>;
    const k = new Consts();
    let pure = true;
    const lines: string[] = [
      'if (typeof v !== "object" || v === null || Array.isArray(v) || Object.hasOwn(v, "__proto__")) return FAIL;',
      'let x, o;',
    ];
    for (const key of Object.keys(shape)) {
      const s = shape[key]!;
      const { optin, optout } = internals(s);
      const c = this.compile(s);
      if (!c.pure || optin === 'defaulted') pure = false;
      const K = JSON.stringify(key);
      if (optin === 'optional' && optout === 'optional') {
        // Absent, or present as undefined (never in JSON): zod leaves it as it is.
        lines.push(
          `x = v[${K}];`,
          `if (x !== undefined) { ${Compiler.callInto(k, c, 'x', `v[${K}]`)} }`,
        );
      } else if (optin === undefined) {
        // Required: absent fails; present (even undefined) is checked.
        lines.push(
          `x = v[${K}];`,
          `if (x === undefined && !(${K} in v)) return FAIL;`,
          Compiler.callInto(k, c, 'x', `v[${K}]`),
        );
      } else {
        lines.push(
          `if (${k.ref(absentAware(key, c.run, optin, optout))}(v) === FAIL) return FAIL;`,
        );
      }
    }
    if (catchall === 'never') {
      const keys = k.ref(new Set(Object.keys(shape)));
      lines.push(`for (const key in v) if (!${keys}.has(key)) return FAIL;`);
    }
    lines.push('return v;');
    return { pure, run: generate('v', lines.join('\n'), k) };
  }

  private union(schema: z.ZodType, def: Record<string, unknown>): Compiled {
    const options = def.options as z.ZodType[];
    const discriminator = def.discriminator as string | undefined;
    if (discriminator !== undefined) {
      if (def.unionFallback) return viaZod(schema);
      // zod dispatches on the discriminator value and runs only that option.
      const byValue = new Map<unknown, Compiled>();
      for (const option of options) {
        const values = internals(option).propValues?.[discriminator];
        if (!values) return viaZod(schema);
        const c = this.compile(option);
        for (const value of values) if (!byValue.has(value)) byValue.set(value, c);
      }
      return {
        pure: [...byValue.values()].every((c) => c.pure),
        run: (v) => {
          if (!isObject(v)) return FAIL;
          const c = byValue.get(v[discriminator]);
          return c ? c.run(v) : FAIL;
        },
      };
    }
    if (def.inclusive === false) return viaZod(schema);
    const compiled = options.map((o) => this.compile(o));
    // zod tries every option on the original input and keeps the first success.
    if (!compiled.every((c) => c.pure)) return viaZod(schema);
    const runs = compiled.map((c) => c.run);
    return {
      pure: true,
      run: (v) => {
        for (const run of runs) {
          const o = run(v);
          if (o !== FAIL) return o;
        }
        return FAIL;
      },
    };
  }
}

/** A field with a default (or another optin/optout mix): zod's absent-key rules, verbatim. */
function absentAware(
  key: string,
  run: Run,
  optin: 'optional' | 'defaulted' | undefined,
  optout: 'optional' | undefined,
): (v: Record<string, unknown>) => unknown {
  return (v) => {
    if (key in v) {
      const x = v[key];
      const o = run(x);
      if (o === FAIL) return FAIL;
      if (o !== x) v[key] = o;
      return o;
    }
    if (optin === 'optional' && optout === 'optional') return undefined;
    const o = run(undefined);
    if (o === FAIL) return optin !== undefined && optout === 'optional' ? undefined : FAIL;
    if (optin === undefined) return FAIL;
    if (o !== undefined) v[key] = o;
    else if (optin === 'defaulted' && optout !== 'optional') v[key] = undefined;
    return o;
  };
}

/**
 * A checker for `schema`. It may change `value` in place (defaults), so give it a value you own,
 * and on `{ ok: false }` validate a pristine copy with zod.
 */
export function compileChecker(schema: z.ZodType): Checker {
  let compiled: Compiled;
  try {
    compiled = new Compiler().compile(schema);
  } catch {
    return () => ({ ok: false });
  }
  return (value) => {
    try {
      const before = rewrites;
      const out = compiled.run(value);
      return out === FAIL ? { ok: false } : { ok: true, value: out, rewrote: rewrites !== before };
    } catch {
      return { ok: false };
    }
  };
}

// Optional second opinion on divergo's Chrome trace-event JSON, with a parser
// written by others: @tracerbench/trace-model (npm, BSD-2-Clause), which
// builds processes, threads and nested slices the way trace viewers do. Not
// run by "go test"; see README.md in this directory.
//
//	mkdir /tmp/tb && (cd /tmp/tb && npm install @tracerbench/trace-model@8.0.0)
//	NODE_PATH=/tmp/tb/node_modules node tracerbench-check.js out.json...
//
// For each file it checks what the model makes of it: every process and
// thread named, every B matched by an E (the model stretches an unmatched B
// to the end of the trace and an unmatched E to its start), no slice ending
// before it starts, every slice inside the parent the model gave it, and no
// two siblings overlapping (the model silently drops a slice that overlaps
// its parent to the top level, so the check is on siblings). It prints a
// summary per file and exits 1 on any problem.
'use strict';
const fs = require('fs');
const { buildModel } = require('@tracerbench/trace-model');

let failed = false;
for (const file of process.argv.slice(2)) {
  const problems = [];
  const trace = JSON.parse(fs.readFileSync(file, 'utf8'));
  let begins = 0, ends = 0, completes = 0, flows = 0;
  for (const ev of trace.traceEvents) {
    if (ev.ph === 'B') begins++;
    if (ev.ph === 'E') ends++;
    if (ev.ph === 'X') completes++;
    if (ev.ph === 's' || ev.ph === 'f') flows++;
  }
  if (begins !== ends) problems.push(`${begins} B events but ${ends} E events`);
  const model = buildModel(trace);
  let slices = 0, threads = 0;
  for (const p of model.processes) {
    if (!p.name) problems.push(`process ${p.id} has no name`);
    for (const t of p.threads) {
      threads++;
      if (!t.name) problems.push(`thread ${p.id}/${t.id} has no name`);
      const children = new Map();
      for (const e of t.events) {
        if (!e.isComplete()) continue;
        slices++;
        if (e.end < e.start) problems.push(`${e.name} ends before it starts`);
        const parent = e.parent;
        if (parent && (e.start < parent.start || e.end > parent.end)) {
          problems.push(`${e.name} [${e.start}, ${e.end}] pokes out of ${parent.name} [${parent.start}, ${parent.end}]`);
        }
        const list = children.get(parent) || [];
        list.push(e);
        children.set(parent, list);
      }
      for (const list of children.values()) {
        list.sort((a, b) => a.start - b.start || b.end - a.end);
        for (let i = 1; i < list.length; i++) {
          if (list[i].start < list[i - 1].end) {
            problems.push(`${list[i].name} [${list[i].start}, ${list[i].end}] overlaps ${list[i - 1].name} [${list[i - 1].start}, ${list[i - 1].end}] on thread ${t.name}`);
          }
        }
      }
    }
  }
  if (slices !== begins + completes) problems.push(`${slices} slices in the model, ${begins + completes} in the file`);
  console.log(`${file}: ${model.processes.length} processes, ${threads} threads, ${slices} slices, ${flows} flow events: ${problems.length ? 'FAIL' : 'ok'}`);
  for (const p of problems.slice(0, 20)) console.log('  ' + p);
  if (problems.length) failed = true;
}
process.exit(failed ? 1 : 0);

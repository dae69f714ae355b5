import { mailbox, type EmailFields } from './email-fields';

/**
 * An email as the multipart form the form-based APIs take (Mailgun, Infobip): repeated to/cc/bcc
 * fields and files as `attachment`. They differ only in the names of the template and reply-to fields.
 */
export function emailForm(f: EmailFields, names: { templateId: string; templateData: string; replyTo: string }): FormData {
  const form = new FormData();
  form.append('from', mailbox(f.from, f.senderName));
  form.append('to', f.to);
  for (const cc of f.cc ?? []) form.append('cc', cc);
  for (const bcc of f.bcc ?? []) form.append('bcc', bcc);
  form.append('subject', f.subject);
  if (f.template) {
    form.append(names.templateId, f.template.id);
    form.append(names.templateData, JSON.stringify(f.template.data));
  } else form.append('html', f.html);
  if (f.text) form.append('text', f.text);
  if (f.replyTo) form.append(names.replyTo, f.replyTo);
  for (const a of f.attachments) form.append('attachment', new Blob([a.content], { type: a.contentType }), a.filename);
  return form;
}

import { cloneElement, useCallback, useEffect, useId, useState, type ReactElement, type ReactNode } from 'react';
import { errorText } from '../api/client';
import { useSession } from '../session';

/** An openapi-fetch call's answer: data, or the error body with its status. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * Loads once per environment (and on `reload`), and again every `pollMs` when given: how lists and
 * timelines stay current without a page reload.
 */
export function useLoad<T>(load: () => Promise<Answer<T>>, deps: unknown[], pollMs?: number) {
  const { environment } = useSession();
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const reload = useCallback(async () => {
    const answer = await load();
    if (answer.data !== undefined) {
      setData(answer.data);
      setError(undefined);
    } else setError(errorText(answer.error, answer.response.status));
    // The caller's deps stand for what `load` closes over: a new closure each render must not refetch.
  }, [environment.id, ...deps]);
  useEffect(() => {
    void reload();
    if (!pollMs) return;
    const timer = setInterval(() => void reload(), pollMs);
    return () => clearInterval(timer);
  }, [reload, pollMs]);
  return { data, error, reload };
}

/** Runs a change; returns the error line to show, or undefined when it worked. */
export async function attempt<T>(call: Promise<Answer<T>>): Promise<{ data?: T; error?: string }> {
  const answer = await call;
  if (answer.error !== undefined || !answer.response.ok) return { error: errorText(answer.error, answer.response.status) };
  return { data: answer.data };
}

export function Alert({ text }: { text?: string }) {
  return text ? <p role="alert" className="error">{text}</p> : null;
}

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <>
      <header className="page-head">
        <h1>{title}</h1>
        {actions}
      </header>
      {children}
    </>
  );
}

/** A labelled control: the label names only the control (a select's value stays out of its name), the hint describes it. */
export function Field({ label, children, hint }: { label: string; children: ReactElement<{ id?: string; 'aria-describedby'?: string }>; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': hint ? `${id}-hint` : undefined })}
      {hint ? <small id={`${id}-hint`}>{hint}</small> : null}
    </div>
  );
}

export function when(iso?: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** Shown in place of a form's buttons to a viewer. */
export function ViewerNote() {
  return <p className="note">You are a viewer: you can look, not change.</p>;
}

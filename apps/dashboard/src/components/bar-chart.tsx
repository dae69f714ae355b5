/** One bar per bucket, optionally stacked by series; an SVG with a text table beside it for screen readers. */
export interface Series {
  name: string;
  color: string;
  values: number[];
}

/** `summary` replaces the caption's total (a percentile is not summed). */
export function BarChart({ title, labels, series, summary }: { title: string; labels: string[]; series: Series[]; summary?: string }) {
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = 24 * labels.length;
  const height = 120;
  const barWidth = 18;
  return (
    <figure className="chart">
      <figcaption>
        {title}: {summary ?? totals.reduce((a, b) => a + b, 0).toLocaleString()}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title} per bucket`} preserveAspectRatio="none">
        {labels.map((label, i) => {
          let y = height;
          return (
            <g key={label}>
              <title>{`${label}: ${series.map((s) => `${s.name} ${s.values[i] ?? 0}`).join(', ')}`}</title>
              {series.map((s) => {
                const h = ((s.values[i] ?? 0) / max) * (height - 4);
                y -= h;
                return <rect key={s.name} x={i * 24 + 3} y={y} width={barWidth} height={h} fill={s.color} />;
              })}
            </g>
          );
        })}
      </svg>
      <div className="axis" aria-hidden="true">
        <span>{labels[0]}</span>
        <span>{labels.at(-1)}</span>
      </div>
      <div className="legend">
        {series.map((s) => (
          <span key={s.name}>
            <i style={{ background: s.color }} aria-hidden="true" /> {s.name}
          </span>
        ))}
      </div>
    </figure>
  );
}

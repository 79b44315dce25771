import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { t } from '../i18n/i18n.ts';

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  color: string;
}

/**
 * A small time-series chart (uPlot: ~50 kB, canvas, fast). The numbers it draws are also in the
 * cards and tables beside it, so the canvas carries a label rather than a data table.
 */
export function TimeChart(props: { title: string; times: number[]; series: ChartSeries[]; format?: (value: number) => string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const format = props.format ?? ((value: number) => String(value));
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height: 180,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [{ stroke: '#5b6472' }, { stroke: '#5b6472', size: 72, values: (_chart, ticks) => ticks.map(format) }],
      series: [{}, ...props.series.map((series) => ({ label: series.label, stroke: series.color, width: 2, points: { show: true, size: 4 }, fill: `${series.color}22`, value: (_chart: uPlot, value: number | null) => (value === null ? '—' : format(value)) }))],
    };
    const data = [props.times.map((time) => time / 1000), ...props.series.map((series) => series.values)] as uPlot.AlignedData;
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height: 180 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.times, props.series]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={host} role="img" aria-label={t('chart.aria', { title: props.title })} data-chart={props.title} />
    </figure>
  );
}

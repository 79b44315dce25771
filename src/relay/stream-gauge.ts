/** How many replies are streaming right now (for `/metrics` and the console). */
export interface StreamGauge {
  open: number;
}

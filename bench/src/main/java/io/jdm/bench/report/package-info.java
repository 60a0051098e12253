/**
 * Reports of a bench run: Markdown tables in the shape of DM's benchmark reports (medians and
 * spread, ratios against peers), CSV of every sample and lag point, and a self-contained HTML page
 * whose charts are inline SVG drawn here.
 */
package io.jdm.bench.report;

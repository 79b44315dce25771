import { readFileSync } from 'node:fs';
import { formatTable } from '../format-table.mjs';
import { usageError } from '../cli-error.mjs';
import { defined, number } from '../option-values.mjs';

/** @type {import('../command.mjs').Noun} */
export const priceCommands = {
  summary: 'model prices in USD per million tokens',
  verbs: {
    list: {
      usage: 'price list',
      summary: 'list prices (USD per million tokens)',
      options: {},
      async run({ client }) {
        const { data } = await client.request('GET', '/prices');
        return {
          json: data,
          text: formatTable(
            ['MODEL', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE'],
            data.map((/** @type {any} */ price) => [price.model, price.input, price.output, price.cacheRead, price.cacheWrite]),
          ),
        };
      },
    },
    set: {
      usage: 'price set <model> --input USD --output USD [--cache-read USD] [--cache-write USD]',
      summary: 'set or replace the price of a model (USD per million tokens)',
      options: {
        input: { type: 'string' },
        output: { type: 'string' },
        'cache-read': { type: 'string' },
        'cache-write': { type: 'string' },
      },
      async run({ client, values, positionals }) {
        const model = positionals[0];
        if (!model) throw usageError('give the model: price set <model> --input USD --output USD');
        for (const name of ['input', 'output']) if (values[name] === undefined) throw usageError(`--${name} is required`);
        const price = await client.request(
          'POST',
          '/prices',
          defined({
            model,
            input: number(values, 'input'),
            output: number(values, 'output'),
            cacheRead: number(values, 'cache-read'),
            cacheWrite: number(values, 'cache-write'),
          }),
        );
        return { json: price, text: `Set ${price.model}: input $${price.input}, output $${price.output} per million tokens.\n` };
      },
    },
    catalogue: {
      usage: 'price catalogue [--file catalogue.json]',
      summary: 'load a price catalogue file, or the one the gateway ships (a changed model gets a new version)',
      options: { file: { type: 'string' } },
      async run({ client, values }) {
        const file = values.file;
        let body;
        if (typeof file === 'string') {
          try {
            body = JSON.parse(readFileSync(file, 'utf8'));
          } catch (error) {
            throw usageError(`cannot read ${file} as JSON: ${/** @type {Error} */ (error).message}`);
          }
        }
        const result = await client.request('POST', body === undefined ? '/prices/catalogue/default' : '/prices/catalogue', body);
        return { json: result, text: `Catalogue ${result.date}: ${result.added.length} models added or changed, ${result.unchanged.length} unchanged.\n` };
      },
    },
    delete: {
      usage: 'price delete <model>',
      summary: 'remove the price of a model',
      options: {},
      async run({ client, positionals }) {
        const model = positionals[0];
        if (!model) throw usageError('give the model: price delete <model>');
        await client.request('DELETE', `/prices/${encodeURIComponent(model)}`);
        return { json: { deleted: model }, text: `Deleted the price of ${model}.\n` };
      },
    },
  },
};

/**
 * The worker module of the template render pool: one operation, `render`, that renders a template from its render
 * model under the limits the pool sends (docs/isolation.md#templates).
 */
import { renderTemplateTask, type TemplateRenderTask } from '../runtime/template-renderer.js';
import { isolatedTaskHandler } from './isolated-task.js';

export default isolatedTaskHandler({
  render: (task: TemplateRenderTask) => renderTemplateTask(task),
});

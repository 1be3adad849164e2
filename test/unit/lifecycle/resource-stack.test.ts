import { expect } from 'chai';
import { ResourceStack, settleWithin } from '../../../shared/lifecycle/index.js';

describe('ResourceStack', () => {
  describe('when closed', () => {
    it('should release every resource once, last added first, and report the ones that failed', async () => {
      const stack = new ResourceStack();
      const released: string[] = [];
      stack.defer('redis', () => void released.push('redis'));
      stack.defer('pool', () => Promise.reject(new Error('pool broke')));
      stack.defer('server', async () => void released.push('server'));
      expect(stack.pending()).to.deep.equal(['server', 'pool', 'redis']);
      const failures = await stack.close();
      expect(released).to.deep.equal(['server', 'redis']);
      expect(failures.map((failure) => [failure.name, (failure.error as Error).message])).to.deep.equal([
        ['pool', 'pool broke'],
      ]);
      expect(stack.pending()).to.deep.equal([]);
      expect(await stack.close()).to.equal(failures);
    });

    it('should list the resource being released as pending until it is released', async () => {
      const stack = new ResourceStack();
      let finish: () => void = () => undefined;
      stack.defer('redis', () => undefined);
      stack.defer('server', () => new Promise<void>((resolve) => (finish = resolve)));
      const closing = stack.close();
      expect(stack.pending()).to.deep.equal(['server', 'redis']);
      finish();
      await closing;
      expect(stack.pending()).to.deep.equal([]);
    });
  });
});

describe('settleWithin', () => {
  it('should say whether a promise settled within the bound', async () => {
    expect(await settleWithin(Promise.resolve(1), 50)).to.equal(true);
    expect(await settleWithin(Promise.reject(new Error('no')), 50)).to.equal(true);
    expect(await settleWithin(new Promise(() => undefined), 20)).to.equal(false);
  });
});

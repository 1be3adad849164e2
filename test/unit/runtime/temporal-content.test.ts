import { expect } from 'chai';
import { dateContentOf, temporalContentOf, timeContentOf } from '../../../shared/runtime/temporal-content.js';

describe('temporal content (native Date and Time)', () => {
  describe('dateContentOf', () => {
    it('should read a local date as the date alone', () => {
      expect(dateContentOf('2025-01-06')).to.deep.equal({ date: '2025-01-06' });
    });

    it('should split a date-time, keep its offset, write Z as +00:00 and drop fractions of a second', () => {
      expect(dateContentOf('2025-01-06T09:30:00')).to.deep.equal({ date: '2025-01-06', time: '09:30:00' });
      expect(dateContentOf('2025-01-06 09:30:00+02:00')).to.deep.equal({ date: '2025-01-06', time: '09:30:00+02:00' });
      expect(dateContentOf('2025-01-06T09:30:00.250Z')).to.deep.equal({ date: '2025-01-06', time: '09:30:00+00:00' });
    });

    it('should refuse impossible dates, epoch numbers and stray text', () => {
      for (const text of [
        '2025-02-30',
        '2025-13-01',
        '1736150400',
        '2025-01-06T25:00:00',
        '2025-01-06T09:30:00 x',
        'soon',
      ])
        expect(dateContentOf(text), text).to.equal(undefined);
    });
  });

  describe('timeContentOf', () => {
    it('should read a time with or without seconds and offset', () => {
      expect(timeContentOf('09:30')).to.deep.equal({ time: '09:30:00' });
      expect(timeContentOf('09:30:15-05:00')).to.deep.equal({ time: '09:30:15-05:00' });
      expect(timeContentOf('23:59:59z')).to.deep.equal({ time: '23:59:59+00:00' });
    });

    it('should refuse a date or an out-of-range time', () => {
      expect(timeContentOf('2025-01-06')).to.equal(undefined);
      expect(timeContentOf('24:00:00')).to.equal(undefined);
    });
  });

  it('should dispatch on the native code and give nothing for other natives', () => {
    expect(temporalContentOf('Date', '2025-01-06')).to.deep.equal({ date: '2025-01-06' });
    expect(temporalContentOf('Time', '07:00')).to.deep.equal({ time: '07:00:00' });
    expect(temporalContentOf('Text', '07:00')).to.equal(undefined);
    expect(temporalContentOf(null, '07:00')).to.equal(undefined);
  });
});
